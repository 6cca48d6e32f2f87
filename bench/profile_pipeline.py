"""Where pysdy's time goes in one pipeline on one transformer stack: per pass, top functions, C++ against Python.

Usage (from the repo root):

    .venv/bin/python bench/profile_pipeline.py --layers 128 --pipeline sdy-propagation-pipeline

The pipeline runs once to warm up (pysdy's lazy imports and tables), once
unprofiled (the wall time shown), then once under cProfile, each on a fresh
parse of the same text.
The export pipelines read the stack after jaxlib's C++ propagation, as in
pipelines.py. cProfile slows Python and not C++, so the profiled figures are
shares of the profiled run, to read against each other.

- per pass: each pysdy pass's `run`, cumulative (a pipeline pass includes its
  steps; a function pass sums its functions), passes under 1% summed;
- top functions by own time;
- MLIR's C++ that pysdy hands whole to MLIR: the own time of the two calls that
  run it (`run_pass_manager`: the pass manager, the verifier after each pass,
  upstream passes such as canonicalize; `_is_valid`: a function's verifier).
  The rest is pysdy's Python together with its calls into the bindings (reading
  and building IR): nanobind's functions do not report to cProfile, so their
  time is their Python caller's own time and the two cannot be told apart here.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cpp_opt  # noqa: E402
from pipelines import AFTER_PROPAGATION, PIPELINES  # noqa: E402
from transformer_stack import transformer_stack_text  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# pysdy's functions whose own time is one call into MLIR's C++ that runs passes or the verifier.
CPP_ENTRY_POINTS = {("pipeline.py", "run_pass_manager"), ("pipeline.py", "_is_valid")}
TOP = 15


def pipeline_input(layers: int, pipeline: str) -> str:
    text = transformer_stack_text(layers)
    if pipeline not in AFTER_PROPAGATION:
        return text
    from jaxlib.mlir import ir

    with cpp_opt.make_context():
        module = ir.Module.parse(text)
        cpp_opt.run_passes(module, ["sdy-propagation-pipeline"])
        return str(module)


def profile(text: str, pipeline: str) -> tuple[float, pstats.Stats]:
    """The unprofiled wall ms of the pipeline on `text`, and the stats of a profiled run."""
    from jaxlib.mlir import ir

    from pysdy.dialects.context import make_context
    from pysdy.passes.pipeline import parse_pipeline, run_pipeline

    steps = parse_pipeline(pipeline)
    for _ in range(2):
        with make_context():
            module = ir.Module.parse(text)
            start = time.perf_counter()
            run_pipeline(module, steps)
            wall_ms = (time.perf_counter() - start) * 1000
    with make_context():
        module = ir.Module.parse(text)
        profiler = cProfile.Profile()
        profiler.runcall(run_pipeline, module, steps)
    return wall_ms, pstats.Stats(profiler)


def where(key: tuple[str, int, str]) -> str:
    path, line, name = key
    if path == "~":
        return name
    return f"{os.path.relpath(path, REPO) if path.startswith(REPO) else os.path.basename(path)}:{line} {name}"


def per_pass(stats: pstats.Stats) -> list[tuple[float, str]]:
    """(cumulative seconds, pass names) of every pysdy `run` that ran, slowest first; passes that inherit one
    `run` (the propagation passes share sdy-basic-propagate's) are named together, as the profile cannot tell them
    apart."""
    from pysdy.passes.registry import all_passes

    names_by_run: dict[tuple, list[str]] = {}
    for argument, cls in all_passes().items():
        code = cls.run.__code__
        composite = " (with its steps)" if hasattr(cls, "steps") else ""
        names_by_run.setdefault((code.co_filename, code.co_firstlineno, code.co_name), []).append(argument + composite)
    found = []
    for key, names in names_by_run.items():
        entry = stats.stats.get(key)
        if entry:
            found.append((entry[3], " / ".join(names)))
    return sorted(found, reverse=True)


def summary(layers: int, pipeline: str, wall_ms: float, stats: pstats.Stats) -> str:
    total = stats.total_tt
    lines = [
        f"pysdy {pipeline}, {layers} layers: {wall_ms:.0f} ms unprofiled, {total * 1000:.0f} ms under cProfile",
        "",
        "per pass (cumulative, share of the profiled run):",
    ]
    passes = per_pass(stats)
    shown = [(seconds, name) for seconds, name in passes if seconds >= total / 100]
    lines += [f"  {seconds * 1000:8.1f} ms {seconds / total:6.1%}  {name}" for seconds, name in shown]
    rest = sum(seconds for seconds, _ in passes[len(shown) :])
    if rest:
        lines.append(f"  {rest * 1000:8.1f} ms {rest / total:6.1%}  {len(passes) - len(shown)} more passes, each under 1%")
    lines += ["", f"top {TOP} functions by own time:"]
    ranked = sorted(stats.stats.items(), key=lambda item: -item[1][2])[:TOP]
    lines += [f"  {entry[2] * 1000:8.1f} ms {entry[2] / total:6.1%}  {where(key)}" for key, entry in ranked]
    cpp = sum(
        entry[2] for (path, _, name), entry in stats.stats.items() if (os.path.basename(path), name) in CPP_ENTRY_POINTS
    )
    lines += [
        "",
        f"MLIR's C++ run whole (pass manager, verifier, upstream passes): {cpp * 1000:.1f} ms, {cpp / total:.1%}",
        f"pysdy's Python with its calls into the bindings:                {(total - cpp) * 1000:.1f} ms, {1 - cpp / total:.1%}",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=32, help="transformer layers (default 32)")
    parser.add_argument("--pipeline", default="sdy-propagation-pipeline", choices=PIPELINES)
    args = parser.parse_args()

    import jax

    jax.config.update("jax_num_cpu_devices", 8)  # before JAX creates its CPU backend
    wall_ms, stats = profile(pipeline_input(args.layers, args.pipeline), args.pipeline)
    print(summary(args.layers, args.pipeline, wall_ms, stats))


if __name__ == "__main__":
    main()
