"""Times each step of `sdy-propagation-pipeline`, pysdy's Python pass beside jaxlib's C++ pass, on one transformer stack.

Usage (from the repo root):

    .venv/bin/python bench/pipeline_steps.py                 # 128 layers, median of 3 runs
    .venv/bin/python bench/pipeline_steps.py --layers 32 --runs 5

The pipeline is expanded into its steps (pysdy's expansion, which the tests
check against jaxlib's). Each implementation runs the steps one by one, each in
a PassManager of its own with the verifier on, as jaxlib's pipeline runs them
(pysdy's pipeline pass verifies only at its end and after the few steps that can
leave invalid IR); a step's time is its `run` (the pass and the verification
after it). Both start from the
same parsed text and each feeds its own output to its next step. Every run is in
one process per implementation, so one side's allocations do not slow the other.
The `verify` row is what verifying the module once costs, to read the rows
against: every step pays it once.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from transformer_stack import transformer_stack_text  # noqa: E402


def pipeline_steps() -> list:
    """The steps of sdy-propagation-pipeline, nested pipelines expanded, as pysdy Steps."""
    from pysdy.passes.pipeline import NestedPipeline, instantiate
    from pysdy.passes.propagation.propagation_pipeline import PropagationPipelinePass

    def expand(steps):
        flat = []
        for step in steps:
            pass_ = None if isinstance(step, NestedPipeline) else instantiate(step)
            inner = getattr(pass_, "steps", None)
            flat.extend(expand(inner()) if inner is not None else [step])
        return flat

    return expand(PropagationPipelinePass().steps())


def step_text(step) -> str:
    from pysdy.passes.pipeline import NestedPipeline

    if isinstance(step, NestedPipeline):
        return f"{step.anchor}({','.join(s.text() for s in step.steps)})"
    return step.text()


def worker(implementation: str, path: str, runs: int) -> dict[str, list[float]]:
    """Milliseconds of every step in every run, and of one verification of the input."""
    from jaxlib.mlir import ir, passmanager

    from pysdy.dialects.context import make_context
    from pysdy.passes.pipeline import build_pass_manager

    with open(path) as f:
        text = f.read()
    steps = pipeline_steps()
    times: dict[str, list[float]] = {"verify": []}
    for _ in range(runs):
        with make_context() as context:
            module = ir.Module.parse(text)
            start = time.perf_counter()
            module.operation.verify()
            times["verify"].append((time.perf_counter() - start) * 1000)
            for index, step in enumerate(steps):
                if implementation == "cpp":
                    manager = passmanager.PassManager.parse(f"builtin.module({step_text(step)})", context)
                else:
                    manager = build_pass_manager((step,), context)
                start = time.perf_counter()
                manager.run(module.operation)
                times.setdefault(f"{index:2d} {step_text(step)}", []).append((time.perf_counter() - start) * 1000)
    return times


def measure(implementation: str, path: str, runs: int) -> dict[str, list[float]]:
    completed = subprocess.run(
        [sys.executable, __file__, "--worker", implementation, path, "--runs", str(runs)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(completed.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=128, help="transformer layers (default 128)")
    parser.add_argument("--runs", type=int, default=3, help="runs per implementation (default 3)")
    parser.add_argument("--worker", nargs=2, metavar=("IMPLEMENTATION", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(*args.worker, args.runs)))
        return

    import jax

    jax.config.update("jax_num_cpu_devices", 8)
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "stack.mlir")
        with open(path, "w") as f:
            f.write(transformer_stack_text(args.layers))
        cpp, pysdy = measure("cpp", path, args.runs), measure("pysdy", path, args.runs)
    print(f"{args.layers} layers, median ms of {args.runs} runs, each step with the verifier on")
    print(f"{'C++':>8} {'pysdy':>8} {'ratio':>6}  step")
    totals = [0.0, 0.0]
    for name in cpp:
        cpp_ms, pysdy_ms = statistics.median(cpp[name]), statistics.median(pysdy[name])
        if name != "verify":
            totals[0] += cpp_ms
            totals[1] += pysdy_ms
        print(f"{cpp_ms:8.1f} {pysdy_ms:8.1f} {pysdy_ms / cpp_ms:6.1f}  {name}")
    print(f"{totals[0]:8.1f} {totals[1]:8.1f} {totals[1] / totals[0]:6.1f}  all steps")


if __name__ == "__main__":
    main()
