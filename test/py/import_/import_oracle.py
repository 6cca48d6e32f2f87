"""Differential harness for the import passes: run a pipeline with jaxlib's C++ passes and with pysdy's.

Inputs are the JAX corpus as lowered, and the corpus taken by C++ through the
steps that precede each pass in `sdy-propagation-pipeline` (plain and with
`dedup-functions-fully=true`), so every pass also sees the IR it meets there.
"""

from __future__ import annotations

import functools

from jaxlib.mlir import ir, passmanager

from child_process import in_child_process
from jax_corpus import corpus
from oracle import cpp_pass_pipeline
from pysdy.dialects.context import make_context
from pysdy.passes.diagnostics import warnings_to
from pysdy.passes.pipeline import parse_pipeline, run_pipeline


def _outcome(module: ir.Module, run, debug_info: bool) -> str:
    """The printed module (with locations if `debug_info`), or `error: <first line of the first
    error>` when the pipeline fails."""
    try:
        run()
    except ir.MLIRError as error:
        first = error.error_diagnostics[0] if error.error_diagnostics else None
        return f"error: {first.message if first else error}"
    return module.operation.get_asm(enable_debug_info=debug_info)


@in_child_process
def run_cpp(text: str, pipeline: str, debug_info: bool = False) -> str:
    with make_context():
        module = ir.Module.parse(text)
        manager = passmanager.PassManager.parse(f"builtin.module({pipeline})")
        return _outcome(module, lambda: manager.run(module.operation), debug_info)


def run_py(text: str, pipeline: str, debug_info: bool = False) -> str:
    with make_context(), warnings_to(lambda location, message: None):
        module = ir.Module.parse(text)
        return _outcome(module, lambda: run_pipeline(module, parse_pipeline(pipeline)), debug_info)


def _split_top_level(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for char in text:
        depth += {"(": 1, "{": 1, ")": -1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return parts + [current]


@functools.cache
def cpp_steps(pipeline: str) -> tuple[str, ...]:
    """The C++ passes `pipeline` expands to, without its module dumps."""
    text = cpp_pass_pipeline(pipeline)
    steps = _split_top_level(text[len("builtin.module(") : -1])
    return tuple(s for s in steps if s != "sdy-save-module")


def propagation_steps(dedup: bool) -> tuple[str, ...]:
    """The C++ passes `sdy-propagation-pipeline` runs, without its module dumps."""
    return cpp_steps("sdy-propagation-pipeline{dedup-functions-fully=true}" if dedup else "sdy-propagation-pipeline")


@functools.cache
def corpus_programs() -> dict[str, str]:
    return corpus()


def _first_index(pass_name: str, dedup: bool) -> int | None:
    for index, step in enumerate(propagation_steps(dedup)):
        if step.split("{")[0] == pass_name:
            return index
    return None


@functools.cache
def _snapshots(name: str, dedup: bool) -> tuple[str, ...]:
    """Corpus program `name` before each C++ step of the propagation pipeline (up to the import passes)."""
    steps = propagation_steps(dedup)
    last = max(i for i in (_first_index(p, dedup) for p in IMPORT_PASSES) if i is not None)
    texts = [corpus_programs()[name]]
    for step in steps[:last]:
        texts.append(run_cpp(texts[-1], step))
    return tuple(texts)


# The import passes that `sdy-propagation-pipeline` runs, in either variant.
IMPORT_PASSES = (
    "sdy-lift-inlined-meshes",
    "sdy-remove-size-one-axes",
    "sdy-propagate-sharding-from-func-to-call",
    "sdy-constant-or-scalar-splitter",
    "sdy-manual-axes-cleanup",
    "sdy-add-data-flow-edges",
    "sdy-flatten-call-graph",
    "sdy-import-func-calls",
    "sdy-apply-sharding-constraints",
    "sdy-sharding-group-import",
    "sdy-add-func-data-flow-edges",
    "sdy-pre-order-funcs",
)


def corpus_inputs(name: str, pass_name: str) -> list[tuple[str, str]]:
    """(variant, text) pairs for corpus program `name`: as lowered, and as `pass_name` meets it inside
    the plain and the `dedup-functions-fully` C++ propagation pipeline (when it runs there)."""
    inputs = [("raw", corpus_programs()[name])]
    for dedup in (False, True):
        index = _first_index(pass_name, dedup)
        if index is None:
            continue
        text = _snapshots(name, dedup)[index]
        if all(text != seen for _, seen in inputs):
            inputs.append(("dedup" if dedup else "default", text))
    return inputs
