"""Times jaxlib's C++ `sdy-propagation-pipeline` against pysdy's on unrolled JAX transformer stacks.

Usage (from the repo root):

    .venv/bin/python bench/propagation.py                  # 8, 32 and 128 layers, median of 5 runs
    .venv/bin/python bench/propagation.py --layers 8,32 --runs 3
    make bench

Each stack (layernorm, multi-head attention, MLP, residuals per layer, unrolled
with a Python loop) is lowered by `jax.jit(...).lower(...).as_text()` with
in_shardings on a 2x4 mesh of 8 CPU devices: about 95 lines per layer, so
~750 / ~3000 / ~12000 lines for 8 / 32 / 128 layers. Both implementations run
on the same text. Per run the module is parsed afresh and only the pipeline's
`run` is timed (time.perf_counter); the table shows the median over the runs.
Every run's printed output is hashed: `same output` says whether every pysdy
run printed exactly what every C++ run printed. When pysdy does not register
`sdy-propagation-pipeline` yet, its columns read `n/a`.

Peak memory: each implementation is measured in its own fresh subprocess
(`--worker`). Before the first run it notes the current RSS and resets the
kernel's RSS high-water mark (Linux: `5` into /proc/self/clear_refs); after
the run, resource.getrusage's max RSS minus that RSS is `peak MB`: what the
pipeline added at its worst, over the parsed module. RSS rather than
tracemalloc because most of the memory either side uses is MLIR's C++ heap
(the IR, the attributes pysdy creates), which tracemalloc does not see, and
because tracemalloc would slow the timed Python code; RSS counts both sides the
same way. A fresh process per measurement keeps one implementation's
allocations (and allocator caches) out of the other's numbers.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

PIPELINE = "sdy-propagation-pipeline"
BATCH, SEQUENCE, MODEL, HEADS, HIDDEN = 8, 128, 256, 8, 1024


# ----- the programs -----


def transformer_stack_text(layers: int) -> str:
    """StableHLO text of `layers` unrolled pre-norm transformer layers, sharded on a ("data", "model") mesh."""
    import jax
    import jax.numpy as jnp
    from jax import lax
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    def layer_norm(x, scale, bias):
        centered = x - x.mean(-1, keepdims=True)
        variance = (centered * centered).mean(-1, keepdims=True)
        return centered * lax.rsqrt(variance + 1e-5) * scale + bias

    def attention(x, wq, wk, wv, wo):
        def split_heads(t):
            return t.reshape(BATCH, SEQUENCE, HEADS, MODEL // HEADS)

        q, k, v = split_heads(x @ wq), split_heads(x @ wk), split_heads(x @ wv)
        scores = jnp.einsum("bshd,bthd->bhst", q, k) / math.sqrt(MODEL // HEADS)
        out = jnp.einsum("bhst,bthd->bshd", jax.nn.softmax(scores, axis=-1), v)
        return out.reshape(BATCH, SEQUENCE, MODEL) @ wo

    def mlp(x, w1, b1, w2, b2):
        return jnp.maximum(x @ w1 + b1, 0.0) @ w2 + b2

    def stack(x, params):
        for ln1_scale, ln1_bias, wq, wk, wv, wo, ln2_scale, ln2_bias, w1, b1, w2, b2 in params:
            x = x + attention(layer_norm(x, ln1_scale, ln1_bias), wq, wk, wv, wo)
            x = x + mlp(layer_norm(x, ln2_scale, ln2_bias), w1, b1, w2, b2)
        return x

    vector, column, row = P(), P(None, "model"), P("model", None)
    layer_params = [
        ((MODEL,), vector), ((MODEL,), vector),
        ((MODEL, MODEL), column), ((MODEL, MODEL), column), ((MODEL, MODEL), column), ((MODEL, MODEL), row),
        ((MODEL,), vector), ((MODEL,), vector),
        ((MODEL, HIDDEN), column), ((HIDDEN,), P("model")), ((HIDDEN, MODEL), row), ((MODEL,), vector),
    ]  # fmt: skip
    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto, AxisType.Auto))
    params = [tuple(jax.ShapeDtypeStruct(shape, jnp.float32) for shape, _ in layer_params)] * layers
    param_shardings = [tuple(NamedSharding(mesh, spec) for _, spec in layer_params)] * layers
    x = jax.ShapeDtypeStruct((BATCH, SEQUENCE, MODEL), jnp.float32)
    in_shardings = (NamedSharding(mesh, P("data")), param_shardings)
    return jax.jit(stack, in_shardings=in_shardings).lower(x, params).as_text()


def count_ops(text: str) -> int:
    """Operations inside the module's top-level ops (func bodies), nested regions included."""
    from jaxlib.mlir import ir

    from pysdy.dialects.context import make_context

    with make_context():
        module = ir.Module.parse(text)
        count = 0

        def visit(_op):
            nonlocal count
            count += 1
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        return count - 1 - len(module.body.operations)


def pysdy_has_pipeline() -> bool:
    from pysdy.passes.registry import lookup_pass

    return lookup_pass(PIPELINE) is not None


# ----- one measurement, in its own process -----


def max_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def current_rss_mb() -> float:
    with open("/proc/self/statm") as f:
        resident_pages = int(f.read().split()[1])
    return resident_pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def reset_max_rss() -> None:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def worker(implementation: str, path: str, runs: int) -> dict:
    """Runs the pipeline `runs` times on the module in `path`; times, RSS growth and output hashes."""
    from jaxlib.mlir import ir, passmanager

    from pysdy.dialects.context import make_context
    from pysdy.passes.pipeline import parse_pipeline, run_pipeline

    with open(path) as f:
        text = f.read()
    pysdy_steps = parse_pipeline(PIPELINE) if implementation == "pysdy" else None
    times_ms, digests, peak_mb = [], [], 0.0
    for index in range(runs):
        with make_context():
            module = ir.Module.parse(text)
            if pysdy_steps is None:
                manager = passmanager.PassManager.parse(f"builtin.module({PIPELINE})")
                run = functools.partial(manager.run, module.operation)
            else:
                run = functools.partial(run_pipeline, module, pysdy_steps)
            if index == 0:
                rss_before = current_rss_mb()
                reset_max_rss()
            start = time.perf_counter()
            run()
            times_ms.append((time.perf_counter() - start) * 1000)
            if index == 0:
                peak_mb = max(0.0, max_rss_mb() - rss_before)
            digests.append(hashlib.sha256(str(module).encode()).hexdigest())
    return {"times_ms": times_ms, "peak_mb": peak_mb, "digests": digests}


def measure(implementation: str, path: str, runs: int) -> dict | str:
    """The worker's result, or "error" (after showing the worker's stderr) if it failed."""
    completed = subprocess.run(
        [sys.executable, __file__, "--worker", implementation, path, "--runs", str(runs)],
        capture_output=True,
        text=True,
    )
    if completed.returncode != 0:
        print(f"{implementation} failed on {path}:\n{completed.stderr[-3000:]}", file=sys.stderr)
        return "error"
    return json.loads(completed.stdout.splitlines()[-1])


# ----- the table -----

COLUMNS = [
    ("layers", 6), ("lines", 6), ("ops", 6), ("C++ ms", 9), ("pysdy ms", 9), ("pysdy/C++", 9),
    ("C++ us/op", 9), ("pysdy us/op", 11), ("C++ peak MB", 11), ("pysdy peak MB", 13), ("same output", 11),
]  # fmt: skip


def row(layers: int, text: str, ops: int, cpp: dict | str, pysdy: dict | str) -> list[str]:
    """Table cells; a measurement that is not a dict is shown as is (`n/a`, `error`)."""

    def median_ms(result):
        return statistics.median(result["times_ms"])

    def cell(result, value):
        return f"{value(result):.1f}" if isinstance(result, dict) else result

    def same_output(cpp, pysdy):
        return "yes" if set(pysdy["digests"]) == set(cpp["digests"]) and len(set(cpp["digests"])) == 1 else "NO"

    return [
        str(layers), str(text.count("\n")), str(ops),
        cell(cpp, median_ms), cell(pysdy, median_ms),
        cell(pysdy, lambda p: median_ms(p) / median_ms(cpp)) if isinstance(cpp, dict) else "n/a",
        cell(cpp, lambda r: median_ms(r) * 1000 / ops), cell(pysdy, lambda r: median_ms(r) * 1000 / ops),
        cell(cpp, lambda r: r["peak_mb"]), cell(pysdy, lambda r: r["peak_mb"]),
        same_output(cpp, pysdy) if isinstance(cpp, dict) and isinstance(pysdy, dict) else "n/a",
    ]  # fmt: skip


def print_row(cells: list[str]) -> None:
    print("  ".join(cell.rjust(width) for cell, (_, width) in zip(cells, COLUMNS)), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", default="8,32,128", help="comma-separated layer counts (default 8,32,128)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per implementation (default 5)")
    parser.add_argument("--worker", nargs=2, metavar=("IMPLEMENTATION", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(*args.worker, args.runs)))
        return

    import jax

    jax.config.update("jax_num_cpu_devices", 8)  # before JAX creates its CPU backend
    has_pysdy = pysdy_has_pipeline()
    if not has_pysdy:
        print(f"pysdy does not register {PIPELINE} yet: its columns read n/a", flush=True)
    print(f"median of {args.runs} runs; parse excluded from pass time", flush=True)
    print_row([name for name, _ in COLUMNS])
    with tempfile.TemporaryDirectory() as directory:
        for layers in (int(n) for n in args.layers.split(",")):
            text = transformer_stack_text(layers)
            path = os.path.join(directory, f"transformer_{layers}.mlir")
            with open(path, "w") as f:
                f.write(text)
            cpp = measure("cpp", path, args.runs)
            pysdy = measure("pysdy", path, args.runs) if has_pysdy else "n/a"
            print_row(row(layers, text, count_ops(text), cpp, pysdy))


if __name__ == "__main__":
    main()
