"""What the pysdy.jax hook adds to compiling the transformer stacks, against XLA's own Shardy propagation time.

Run as `bench/jax_hook.py --stacks 8,32,128 [--runs N]`. In one process, per
stack size: `jax.jit(stack, in_shardings, out_shardings).lower(...).compile()`
timed plainly (XLA's own Shardy route, as JAX runs it) and under
`pysdy.jax.pipeline_hook()` (route "sdy"), the two taking turns run by run.
Only `.compile()` is timed; before each run `jax.clear_caches()` makes it a
fresh compile, and a hooked run must raise the hook's compile counter and take
the sdy route (else the bench stops). `C++ prop ms` is jaxlib's C++
`sdy-propagation-pipeline` run in-process on JAX's lowered text (parse
excluded): the propagation XLA's Shardy route runs inside its compile.
`added / C++ prop` is the hook's extra compile time over that (issue 15's
target: at most 0.5). pysdy.jax keeps no per-compile timing, so `hand-off
ms` is measured here by wrapping the hook's call of `hand_off` (pysdy's
pipeline on JAX's module text, up to the text XLA gets); the rest of
`added` is the hook printing JAX's module, parsing pysdy's, and XLA's
compile of it differing from its compile of JAX's. One untimed compile each
way (one layer) comes first, so imports and XLA's start-up are not counted.
Medians of the runs.
"""

from __future__ import annotations

import statistics
import time

import progress
from transformer_stack import transformer_stack

PIPELINE = "sdy-propagation-pipeline"
COLUMNS = (
    "layers", "plain ms", "hooked ms", "added ms", "C++ prop ms", "added / C++ prop", "hand-off ms",
)  # fmt: skip


class HookTimer:
    """Wraps the hook's `hand_off` while in use, adding up the seconds spent in it."""

    def __init__(self) -> None:
        import pysdy.jax.hook as hook

        self.hook = hook
        self.seconds = 0.0

    def __enter__(self) -> HookTimer:
        original = self.original = self.hook.hand_off

        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start

        self.hook.hand_off = timed
        return self

    def __exit__(self, *exc) -> None:
        self.hook.hand_off = self.original


def cpp_propagation_ms(text: str, runs: int) -> list[float]:
    """jaxlib's C++ propagation pipeline on `text`, each run on a fresh parse, parse not timed."""
    from jaxlib.mlir import ir, passmanager

    from pysdy.dialects.context import make_context

    times = []
    for _ in range(runs):
        with make_context():
            module = ir.Module.parse(text)
            manager = passmanager.PassManager.parse(f"builtin.module({PIPELINE})")
            start = time.perf_counter()
            manager.run(module.operation)
            times.append((time.perf_counter() - start) * 1000)
    return times


def compile_ms(jitted, arguments: tuple, hooked: bool) -> tuple[float, float]:
    """One fresh compile's milliseconds, and (hooked) the milliseconds spent in pysdy's hand-off."""
    import jax

    import pysdy.jax

    jax.clear_caches()
    if not hooked:
        lowered = jitted.lower(*arguments)
        start = time.perf_counter()
        lowered.compile()
        return (time.perf_counter() - start) * 1000, 0.0
    with pysdy.jax.pipeline_hook(route="sdy"), HookTimer() as timer:
        lowered = jitted.lower(*arguments)
        compiles = pysdy.jax.hook_summary().compiles
        start = time.perf_counter()
        lowered.compile()
        seconds = time.perf_counter() - start
    if pysdy.jax.hook_summary().compiles != compiles + 1:
        raise RuntimeError("the hooked compile did not go through the hook once: not a fresh compile")
    route = pysdy.jax.compilations()[-1].route
    if route != "sdy":
        raise RuntimeError(f"the hooked compile took the {route} route, not sdy: its time is not the hook's")
    return seconds * 1000, timer.seconds * 1000


def measure(layers: int, runs: int) -> dict:
    """Every run's plain and hooked compile times, hand-off times and C++ propagation times for one size."""
    import jax

    stack = transformer_stack(layers)
    jitted = jax.jit(stack.function, in_shardings=stack.in_shardings, out_shardings=stack.out_shardings)
    plain, hooked, hand_off = [], [], []
    for _ in range(runs):
        plain.append(compile_ms(jitted, stack.arguments, hooked=False)[0])
        hooked_ms, hand_off_ms = compile_ms(jitted, stack.arguments, hooked=True)
        hooked.append(hooked_ms)
        hand_off.append(hand_off_ms)
    text = jitted.lower(*stack.arguments).as_text()
    return {"plain": plain, "hooked": hooked, "hand_off": hand_off, "cpp": cpp_propagation_ms(text, runs)}


def row(layers: int, measured: dict) -> list[str]:
    plain, hooked, hand_off, cpp = (statistics.median(measured[key]) for key in ("plain", "hooked", "hand_off", "cpp"))
    added = hooked - plain
    return [str(layers), f"{plain:.0f}", f"{hooked:.0f}", f"{added:.0f}", f"{cpp:.0f}", f"{added / cpp:.2f}", f"{hand_off:.0f}"]


def print_row(cells: list[str]) -> None:
    print("  ".join(cell.rjust(len(name)) for cell, name in zip(cells, COLUMNS)), flush=True)


def run(sizes: list[int], runs: int) -> None:
    import jax

    warm_up = transformer_stack(1)
    jitted = jax.jit(warm_up.function, in_shardings=warm_up.in_shardings, out_shardings=warm_up.out_shardings)
    compile_ms(jitted, warm_up.arguments, hooked=False)
    compile_ms(jitted, warm_up.arguments, hooked=True)
    print(f"jax {jax.__version__}, median of {runs} run(s) each way, compile only (lowering not timed)", flush=True)
    print_row(list(COLUMNS))
    for layers in sizes:
        progress.show(f"{layers} layers: compiling {runs} time(s) each way ...")
        measured = measure(layers, runs)
        progress.clear()
        print_row(row(layers, measured))
