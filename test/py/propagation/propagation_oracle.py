"""Runs a propagation pass (or pipeline) in jaxlib's C++ and in pysdy on the same module text."""

from __future__ import annotations

import functools
from typing import Callable

from jaxlib.mlir import ir, passmanager

from child_process import ChildProcessCrash, in_child_process
from jax_corpus import corpus
from oracle import cpp_output
from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import parse_pipeline, run_pipeline


def pysdy_output(text: str, pipeline: str) -> str:
    with make_context():
        module = ir.Module.parse(text)
        run_pipeline(module, parse_pipeline(pipeline))
        return str(module)


def _outcome(run: Callable[[ir.Module, str], None], text: str, pipeline: str) -> str:
    """The error (if any) and the module after running `pipeline`: a failing run leaves its module too."""
    with make_context():
        module = ir.Module.parse(text)
        try:
            run(module, pipeline)
            error = ""
        except ir.MLIRError as failure:
            error = f"error: {failure}\n"
        return error + str(module)


def pysdy_outcome(text: str, pipeline: str) -> str:
    return _outcome(lambda module, steps: run_pipeline(module, parse_pipeline(steps)), text, pipeline)


@in_child_process
def cpp_outcome(text: str, pipeline: str) -> str:
    return _outcome(
        lambda module, steps: passmanager.PassManager.parse(f"builtin.module({steps})").run(module.operation),
        text,
        pipeline,
    )


def cpp_outcome_unless_it_crashes(text: str, pipeline: str) -> str | None:
    """jaxlib's outcome; None if jaxlib crashed, as it does where its C++ is undefined (e.g. debug info on ops it
    erased)."""
    try:
        return cpp_outcome(text, pipeline)
    except ChildProcessCrash:
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
