"""Programs partitioned by pysdy's own passes (propagation, explicit collectives, `sdy-convert-global-to-local`) run
on 8 CPU devices through the per-device harness and give what their global module gives on one device; and where
jaxlib's C++ partitioner gives a program that computes wrong values, pysdy refuses."""

from __future__ import annotations

import functools

import jax_corpus
import numpy as np
import pytest
from child_process import in_child_process
from jaxlib.mlir import ir
from oracle import cpp_output
from partitioned_programs import PROGRAMS, partitioner_pipeline

from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import parse_pipeline, run_pipeline
from pysdy.runtime.host_inputs import random_inputs
from pysdy.runtime.module_info import module_info_of_text
from pysdy.runtime.per_device_check import PerDeviceRun, check_per_device


def _pysdy_partitioned(text: str) -> str | ir.MLIRError:
    """The per-device module pysdy's passes make of `text`, or the error they refuse it with."""
    with make_context():
        module = ir.Module.parse(text)
        try:
            run_pipeline(module, parse_pipeline(partitioner_pipeline()))
        except ir.MLIRError as error:
            return error
        return str(module)


@in_child_process
def _run(global_text: str, local_text: str) -> PerDeviceRun:
    return check_per_device(global_text, local_text, random_inputs(module_info_of_text(global_text), seed=3), 8)


@functools.cache
def _outcome(name: str) -> str:
    """`runs right`, `refused`, or what went wrong."""
    text = PROGRAMS[name] if name in PROGRAMS else jax_corpus.corpus()[name]
    local = _pysdy_partitioned(text)
    if isinstance(local, ir.MLIRError):
        return "refused"
    run = _run(text, local)
    return "runs right" if not run.problems else "; ".join(run.problems)


@pytest.mark.parametrize("name", list(PROGRAMS) + jax_corpus.program_names())
def test_what_pysdy_partitions_runs_right(name):
    assert _outcome(name) in ("runs right", "refused")


def test_pysdy_partitions_most_corpus_programs_it_converts():
    outcomes = [_outcome(name) for name in jax_corpus.program_names()]
    assert outcomes.count("runs right") >= 20, outcomes


# Programs whose per-device program from jaxlib's C++ computes wrong values, with what pysdy's refusal says:
# - the export puts two all-reduces over "y" after a dot whose result is marked unreduced on "y" and then
#   constrained to be reduced: the second adds four copies of the finished sum (every line);
# - a dynamic update slice at a position along a split dimension is done at that position in each device's part
#   (jax 0.10 and 0.11; 0.12's C++ fails on it with an error).
CPP_WRONG_VALUES = {
    "explicit_mesh_unreduced_matmul": "would reduce whole values again",
    "dynamic_update_slice_static_and_traced_position": "slicing at a global position along a split dimension",
}


@pytest.mark.parametrize("name", list(CPP_WRONG_VALUES))
def test_where_the_cpp_computes_wrong_values_pysdy_refuses(name):
    text = jax_corpus.corpus()[name]
    try:
        local = cpp_output(text, partitioner_pipeline())
    except ir.MLIRError:
        local = None  # the C++ fails on it too on this line
    if local is not None:
        run = _run(text, local)
        assert any("differs from the unpartitioned run" in problem for problem in run.problems), run.problems
    refusal = _pysdy_partitioned(text)
    assert isinstance(refusal, ir.MLIRError)
    assert CPP_WRONG_VALUES[name] in str(refusal)


def test_the_harness_inputs_are_not_all_zero():
    """The runs above would pass on zeros: the inputs are random normal values."""
    inputs = random_inputs(module_info_of_text(PROGRAMS["all_reduce"]), seed=3)
    assert all(np.std(array) > 0.5 for array in inputs)
