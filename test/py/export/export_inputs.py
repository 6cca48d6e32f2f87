"""Inputs for the export-pass differential tests: the JAX corpus taken through jaxlib's C++ pipeline up to each export step.

`sdy-propagation-pipeline` (import, propagation, then the export passes) is
expanded into its C++ steps; running the steps before an export pass on a
corpus program gives exactly the IR that pass sees in the real pipeline.
This C++ run is only test-input generation: the pass under test is then run
once by C++ and once by pysdy on copies of that input.
"""

from __future__ import annotations

import functools

from jaxlib.mlir import ir, passmanager

from child_process import in_child_process
from oracle import cpp_output, cpp_pass_pipeline
from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import parse_pipeline, run_pipeline

# Pipeline variants: the options of sdy-propagation-pipeline, and the debug
# mode (sharding origins and propagation edges recorded and sunk).
VARIANTS = ("default", "dedup", "debug")
_DEBUG_OPTIONS = ("debug-propagation-edge-sharding", "debug-sharding-origins")


def split_top_level(text: str) -> list[str]:
    """The top-level steps of a printed `builtin.module(...)` pipeline."""
    inner = text[len("builtin.module(") : -1]
    parts, depth, current = [], 0, ""
    for char in inner:
        depth += {"(": 1, "{": 1, ")": -1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return parts


@functools.cache
def pipeline_steps(variant: str) -> tuple[str, ...]:
    """The C++ steps of the propagation pipeline (minus module dumps, which are no-ops here)."""
    options = "{dedup-functions-fully=true}" if variant == "dedup" else ""
    text = cpp_pass_pipeline(f"sdy-propagation-pipeline{options}")
    steps = [s for s in split_top_level(text) if s != "sdy-save-module"]
    if variant == "debug":
        for option in _DEBUG_OPTIONS:
            steps = [s.replace(f"{option}=false", f"{option}=true") for s in steps]
    return tuple(steps)


def step_index(variant: str, pass_name: str) -> int:
    for index, step in enumerate(pipeline_steps(variant)):
        if pass_name in step:
            return index
    raise KeyError(pass_name)


@in_child_process
def _cpp_snapshots(text: str, steps: tuple[str, ...]) -> list[str] | None:
    """The module before every C++ step, and after the last; None if a step fails. The list ends early, before the
    first module jaxlib's own parser cannot read back (jax 0.12's debug steps print an empty
    `#sdy.propagation_edges<[]>`), as no later pass can be given it."""
    with make_context():
        module = ir.Module.parse(text)
        texts = []
        try:
            for step in steps:
                texts.append(str(module))
                passmanager.PassManager.parse(f"builtin.module({step})").run(module.operation)
        except ir.MLIRError:
            return None
        texts.append(str(module))
    for index, snapshot in enumerate(texts):
        with make_context():
            try:
                ir.Module.parse(snapshot)
            except ir.MLIRError:
                return texts[:index]
    return texts


@functools.cache
def _snapshots(variant: str) -> dict[str, list[str]]:
    """Program name -> the module text before every step of the pipeline, and after the last.

    Programs the C++ pipeline fails on are left out (the C++ debug-info bookkeeping fails its own verifier on a
    few), and so, in the debug mode, are programs with sharding groups: jaxlib's C++ crashes on some of them or
    records garbage origins. A program's list ends before a module jaxlib's parser cannot read back.
    """
    from jax_corpus import corpus

    steps = pipeline_steps(variant)
    snapshots = {}
    for name, text in corpus().items():
        if variant == "debug" and "sdy.sharding_group" in text:
            continue
        texts = _cpp_snapshots(text, steps)
        if texts is not None:
            snapshots[name] = texts
    return snapshots


def corpus_before(variant: str, pass_name: str | None) -> dict[str, str]:
    """Every corpus program as the C++ pipeline hands it to `pass_name` (None: after the whole pipeline)."""
    index = len(pipeline_steps(variant)) if pass_name is None else step_index(variant, pass_name)
    return {name: texts[index] for name, texts in _snapshots(variant).items() if index < len(texts)}


def print_after_pysdy(text: str, pipeline: str) -> str:
    with make_context():
        module = ir.Module.parse(text)
        run_pipeline(module, parse_pipeline(pipeline))
        return str(module)


def assert_same_output(text: str, cpp_pipeline: str, pysdy_pipeline: str | None = None) -> None:
    """C++ and pysdy print the same module after running the pipeline on `text`."""
    expected = cpp_output(text, cpp_pipeline)
    actual = print_after_pysdy(text, pysdy_pipeline or cpp_pipeline)
    assert actual == expected
