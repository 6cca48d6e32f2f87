"""`sdy.collective_permute` in `sdy-convert-global-to-local`, shardings naming sub-axes among them: pysdy's per-device
program puts every part on the device its out sharding says, on every line; from jax 0.11 it equals the C++'s, and on
jax 0.10, where it differs, the C++'s program puts parts on the wrong devices."""

from __future__ import annotations

import numpy as np
import pytest

import jax_corpus  # noqa: F401 (gives JAX its 8 CPU devices before the backend starts)
import located_outcomes
from child_process import in_child_process
from line_side import when
from pysdy.runtime.per_device_check import check_per_device

PASS = "sdy-convert-global-to-local"

# (mesh, in sharding, out sharding)
PERMUTES = [
    ('<["x"=2, "y"=4]>', '[{"y":(1)2}, {}]', '[{"y":(2)2}, {}]'),
    ('<["x"=2, "y"=4]>', '[{"x", "y":(1)2}, {}]', '[{"y":(1)2, "x"}, {}]'),
    ('<["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>', '[{"y":(2)2}, {"x"}]', '[{"x"}, {"y":(2)2}]'),
    ('<["x"=2, "y"=4]>', '[{"y":(2)2}, {"x"}]', '[{"x"}, {"y":(2)2}]'),
    ('<["x"=4, "y"=2]>', '[{"x":(1)2}, {"y"}]', '[{"y"}, {"x":(2)2}]'),
    ('<["x"=4, "y"=2]>', '[{"x"}, {}]', '[{"x":(2)2, "x":(1)2}, {}]'),
    ('<["x"=2, "y"=4]>', '[{"x"}, {"y"}]', '[{"y":(1)2}, {"x", "y":(2)2}]'),
    ('<["x"=2, "y"=4]>', '[{}, {"y", "x"}]', '[{}, {"x", "y"}]'),
]


def _module(mesh: str, source: str, target: str, permute: bool) -> str:
    """The permute of an 8x8 value, or (not `permute`) the function it implements: its argument returned."""
    permuted = f"%0 = sdy.collective_permute %arg0 out_sharding=<@mesh, {target}> : tensor<8x8xf32>\n  return %0"
    body = permuted if permute else "return %arg0"
    return f"""sdy.mesh @mesh = {mesh}
func.func @main(%arg0: tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, {source}>}}) -> (tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, {target}>}}) {{
  {body} : tensor<8x8xf32>
}}
"""


@in_child_process
def _problems(global_text: str, local_text: str) -> list[str]:
    inputs = [np.arange(64, dtype=np.float32).reshape(8, 8)]
    return check_per_device(global_text, local_text, inputs, 8).problems


@pytest.mark.parametrize("case", range(len(PERMUTES)))
def test_every_part_goes_where_the_out_sharding_puts_it(case):
    pysdy = located_outcomes.pysdy(_module(*PERMUTES[case], permute=True), PASS)
    assert _problems(_module(*PERMUTES[case], permute=False), pysdy) == []


@when("convert_global_to_local_permutes_sub_axes_right")
@pytest.mark.parametrize("case", range(len(PERMUTES)))
def test_as_cpp(case):
    text = _module(*PERMUTES[case], permute=True)
    assert located_outcomes.pysdy(text, PASS) == located_outcomes.cpp(text, PASS)


@when("convert_global_to_local_permutes_sub_axes_right", False)
def test_where_the_cpp_pairs_devices_otherwise_its_program_runs_wrong():
    differing = 0
    for case in PERMUTES:
        text = _module(*case, permute=True)
        cpp = located_outcomes.cpp(text, PASS)
        if cpp != located_outcomes.pysdy(text, PASS):
            assert ":(" in case[1] + case[2], "the C++ pairs devices otherwise without sub-axes"
            assert _problems(_module(*case, permute=False), cpp), "the C++'s program, which differs, runs right"
            differing += 1
    assert differing >= 4
