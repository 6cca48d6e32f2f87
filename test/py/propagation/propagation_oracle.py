"""Runs a propagation pass (or pipeline) in jaxlib's C++ and in pysdy on the same module text."""

from __future__ import annotations

import functools
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from jaxlib.mlir import ir, passmanager

from jax_corpus import corpus
from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import parse_pipeline, run_pipeline


def cpp_output(text: str, pipeline: str) -> str:
    with make_context():
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(f"builtin.module({pipeline})").run(module.operation)
        return str(module)


def pysdy_output(text: str, pipeline: str) -> str:
    with make_context():
        module = ir.Module.parse(text)
        run_pipeline(module, parse_pipeline(pipeline))
        return str(module)


def run_cpp(module: ir.Module, pipeline: str) -> None:
    passmanager.PassManager.parse(f"builtin.module({pipeline})").run(module.operation)


def run_pysdy(module: ir.Module, pipeline: str) -> None:
    run_pipeline(module, parse_pipeline(pipeline))


def outcome(run, text: str, pipeline: str) -> str:
    """The error (if any) and the module after running `pipeline`: a failing run leaves its module too."""
    with make_context():
        module = ir.Module.parse(text)
        try:
            run(module, pipeline)
            error = ""
        except ir.MLIRError as failure:
            error = f"error: {failure}\n"
        return error + str(module)


_worker: ProcessPoolExecutor | None = None


def cpp_outcome_unless_it_crashes(text: str, pipeline: str) -> str | None:
    """jaxlib's outcome, run in a worker process; None if jaxlib crashed, as it does where its C++ is
    undefined (e.g. debug info on ops it erased). The worker is started again after a crash."""
    global _worker
    if _worker is None:
        _worker = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    try:
        return _worker.submit(outcome, run_cpp, text, pipeline).result()
    except BrokenProcessPool:
        _worker = None
        return None


@functools.cache
def imported_corpus() -> dict[str, str]:
    """The JAX corpus after jaxlib's C++ import pipeline: the input propagation passes expect."""
    return {name: cpp_output(text, "sdy-import-pipeline") for name, text in corpus().items()}


def first_difference(expected: str, actual: str) -> str:
    for number, (want, got) in enumerate(zip(expected.splitlines(), actual.splitlines()), 1):
        if want != got:
            return f"line {number}:\n  C++:   {want.strip()}\n  pysdy: {got.strip()}"
    return "outputs differ in length"
