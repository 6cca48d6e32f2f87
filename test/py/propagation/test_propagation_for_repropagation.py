"""`sdy-propagation-pipeline{avoid-export-for-partitioning=true}`, the module `pysdy.jax` hands XLA's Shardy
partitioner: jaxlib's steps for it, jaxlib's output on every JAX corpus program, and jaxlib's propagation run again
on pysdy's result finding nothing to add but explicit replication."""

from __future__ import annotations

import functools
import re

import pytest
from jaxlib.mlir import ir

from jax_corpus import corpus, program_names
from oracle import cpp_output, cpp_pass_pipeline
from propagation_oracle import first_difference, pysdy_output
from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.common.func_attrs import (
    arg_shardings,
    num_arguments,
    num_results,
    result_shardings,
    set_arg_attrs,
    set_result_attrs,
)
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.pipeline import pipeline_text
from pysdy.passes.propagation.propagation_pipeline import PropagationPipelinePass

PIPELINE = "sdy-propagation-pipeline{avoid-export-for-partitioning=true}"
_PASS_NAME = re.compile(r"(?:^|[,(])([a-z][a-z0-9.-]*)(?=[{,()]|$)")
# Not steps of pysdy's pipeline: nesting, jaxlib's debug dumps, and the mesh inlining that ends `sdy-export-pipeline`
# run on its own.
_NOT_STEPS = {"builtin.module", "func.func", "sdy-save-module", "sdy-inline-meshes"}


@functools.cache
def _cpp_pipeline() -> str:
    """pysdy's steps for the option, spelled for jaxlib's pass manager (checked against jaxlib's expansions below)."""
    return pipeline_text(PropagationPipelinePass(avoid_export_for_partitioning=True).steps())


def _pass_names(pipeline: str) -> list[str]:
    return [name for name in _PASS_NAME.findall(re.sub(r"\{[^{}]*(\{[^{}]*\}[^{}]*)*\}", "", pipeline)) if name not in _NOT_STEPS]


def _jaxlib_names(pipeline: str) -> list[str]:
    return _pass_names(cpp_pass_pipeline(pipeline))


def test_steps_are_jaxlib_propagation_then_jaxlib_repropagatable_export():
    export = _jaxlib_names("sdy-export-pipeline")
    propagation = _jaxlib_names("sdy-propagation-pipeline")
    assert propagation[-len(export) :] == export
    expected = propagation[: -len(export)] + _jaxlib_names("sdy-export-pipeline{avoid-export-for-partitioning=true}")
    assert _pass_names(_cpp_pipeline()) == expected
    assert "sdy-insert-explicit-reshards" not in expected and "sdy-remove-sharding-groups" not in expected


@functools.cache
def _programs() -> dict[str, str]:
    return corpus()


@pytest.mark.parametrize("name", program_names())
def test_matches_jaxlib_on_jax_programs(name):
    text = _programs()[name]
    expected = cpp_output(text, _cpp_pipeline())
    actual = pysdy_output(text, PIPELINE)
    assert actual == expected, first_difference(expected, actual)


def _is_closed_replication(sharding: TensorSharding | None) -> bool:
    return sharding is not None and not sharding.unreduced and all(not d.axes and d.is_closed for d in sharding.dims)


def _without_closed_replication(text: str) -> str:
    """`text` without shardings that say only "replicated, closed": an unsharded value after propagation means that."""
    with make_context():
        module = ir.Module.parse(text)
        for op in nested_ops(module.operation):
            if op.name == "func.func":
                args, results = arg_shardings(op), result_shardings(op)
                set_arg_attrs(op, {i: None for i in range(num_arguments(op)) if _is_closed_replication(args[i])})
                set_result_attrs(op, {i: None for i in range(num_results(op)) if _is_closed_replication(results[i])})
            elif "sdy.sharding" in op.attributes:
                shardings = TensorShardingPerValue.from_attr(op.attributes["sdy.sharding"]).shardings
                if all(_is_closed_replication(s) for s in shardings):
                    del op.attributes["sdy.sharding"]
        return str(module)


@pytest.mark.parametrize("name", program_names())
def test_jaxlib_propagation_adds_only_replication_to_the_result(name):
    """What XLA's Shardy partitioner does first with the module: its propagation, which must keep every sharding."""
    handed_off = pysdy_output(_programs()[name], PIPELINE)
    again = cpp_output(handed_off, _cpp_pipeline())
    assert _without_closed_replication(again) == _without_closed_replication(handed_off)
