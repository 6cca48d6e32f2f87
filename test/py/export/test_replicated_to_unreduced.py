"""`sdy.replicated_to_unreduced` in `sdy-convert-global-to-local`: the value kept on the first device of each group
along the axes, zeros on the others, equal to jax 0.12's C++ (which fails on it before); followed by the all-reduce
that finishes it, the per-device program gives back the value on every line."""

from __future__ import annotations

import numpy as np
import pytest

import jax_corpus  # noqa: F401 (gives JAX its 8 CPU devices before the backend starts)
import located_outcomes
from child_process import in_child_process
from conversion_outcomes import as_cpp_or_refused
from pysdy.runtime.per_device_check import check_per_device

PASS = "sdy-convert-global-to-local"

# (element type, the operand's sharding, the axes made partial, the unreduced axes after)
CASES = [
    ("f32", '[{"x"}, {}]', '{"y"}', '{"y"}'),
    ("i32", '[{}, {"y"}]', '{"x"}', '{"x"}'),
    ("f32", '[{}, {}]', '{"x", "y"}', '{"x", "y"}'),
    ("bf16", '[{}, {}], unreduced={"x"}', '{"y"}', '{"x", "y"}'),
]


def _module(element: str, operand: str, axes: str, unreduced: str, finished: bool) -> str:
    """The op alone, or (`finished`) followed by the all-reduce over every unreduced axis."""
    dims = operand.split("]")[0] + "]"
    made = f"<@mesh, {dims}, unreduced={unreduced}>"
    body = f"%0 = sdy.replicated_to_unreduced {axes} %arg0 out_sharding={made} : tensor<8x8x{element}>"
    result = made
    if finished:
        body += f"\n  %1 = sdy.all_reduce {unreduced} %0 out_sharding=<@mesh, {dims}> : tensor<8x8x{element}>"
        result = f"<@mesh, {dims}>"
    returned = "%1" if finished else "%0"
    return f"""sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8x{element}> {{sdy.sharding = #sdy.sharding<@mesh, {operand}>}}) -> (tensor<8x8x{element}> {{sdy.sharding = #sdy.sharding{result}}}) {{
  {body}
  return {returned} : tensor<8x8x{element}>
}}
"""


@in_child_process
def _problems(global_text: str, local_text: str, element: str) -> list[str]:
    inputs = [np.arange(64).reshape(8, 8).astype({"f32": np.float32, "i32": np.int32, "bf16": np.float32}[element])]
    return check_per_device(global_text, local_text, inputs, 8).problems


@pytest.mark.parametrize("case", range(len(CASES)))
def test_as_cpp_or_where_it_fails(case):
    assert as_cpp_or_refused(_module(*CASES[case], finished=False)) in ("converted", "converted where the C++ fails")


@pytest.mark.parametrize("case", [0, 1, 2])
def test_finished_by_an_all_reduce_it_gives_the_value_back(case):
    element, operand, axes, unreduced = CASES[case]
    local = located_outcomes.pysdy(_module(*CASES[case], finished=True), PASS)
    identity = f"""sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8x{element}> {{sdy.sharding = #sdy.sharding<@mesh, {operand}>}}) -> (tensor<8x8x{element}> {{sdy.sharding = #sdy.sharding<@mesh, {operand}>}}) {{
  return %arg0 : tensor<8x8x{element}>
}}
"""
    assert _problems(identity, local, element) == []
