"""Where pysdy's `sdy-convert-global-to-local` departs from jax 0.12's C++ on a scatter whose updates are split along
its scatter dimensions: the value the other devices' operands are masked to. pysdy writes the identity of the
scatter's maximum or minimum (an infinity, an unsigned bound) and its per-device program gives what the module
gives; the C++ writes a finite float or a signed bound, and its program gives other values where the operand holds
what that value hides. The rest of the two outputs is the same."""

from __future__ import annotations

import difflib

import numpy as np
import pytest

import jax_corpus  # noqa: F401 (gives JAX its 8 CPU devices before the backend starts)
import located_outcomes
from child_process import in_child_process
from line_side import when
from pysdy.runtime.per_device_check import check_per_device

PASS = "sdy-convert-global-to-local"

_SCATTER = """sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<64x16x{t}>, %arg1: tensor<8x1xi32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{}}]>}}, %arg2: tensor<8x16x{t}> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{}}]>}}) -> tensor<64x16x{t}> {{
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}}> ({{
  ^bb0(%a: tensor<{t}>, %b: tensor<{t}>):
    %s = stablehlo.{op} %a, %b : tensor<{t}>
    stablehlo.return %s : tensor<{t}>
  }}) : (tensor<64x16x{t}>, tensor<8x1xi32>, tensor<8x16x{t}>) -> tensor<64x16x{t}>
  return %0 : tensor<64x16x{t}>
}}
"""

# (element type, body op, the operand's every element, pysdy's identity as printed, the C++'s)
CASES = {
    "f32 maximum over -inf": ("f32", "maximum", -np.inf, "dense<0xFF800000>", "dense<-3.40282347E+38>"),
    "f32 minimum over +inf": ("f32", "minimum", np.inf, "dense<0x7F800000>", "dense<3.40282347E+38>"),
    "ui8 maximum over 0": ("ui8", "maximum", 0, "dense<0>", "dense<128>"),
}
_NUMPY = {"f32": np.float32, "ui8": np.uint8}


def _inputs(element: str, fill: float) -> list[np.ndarray]:
    rng = np.random.default_rng(11)
    dtype = _NUMPY[element]
    operand = np.full((64, 16), fill, dtype=dtype)
    indices = rng.integers(0, 64, size=(8, 1), dtype=np.int32)  # (rows no update reaches keep the operand's value)
    updates = rng.integers(1, 100, size=(8, 16)).astype(dtype)
    return [operand, indices, updates]


@in_child_process
def _problems(global_text: str, local_text: str, element: str, fill: float) -> list[str]:
    return check_per_device(global_text, local_text, _inputs(element, fill), 8).problems


@when("convert_global_to_local_finishes_partial_results")
@pytest.mark.parametrize("case", list(CASES))
def test_pysdy_masks_with_the_identity_and_runs_right_where_the_cpp_does_not(case):
    element, op, fill, ours, theirs = CASES[case]
    text = _SCATTER.format(t=element, op=op)
    pysdy, cpp = located_outcomes.pysdy(text, PASS), located_outcomes.cpp(text, PASS)
    changed = [
        line for line in difflib.unified_diff(cpp.splitlines(), pysdy.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    assert len(changed) == 2 and theirs in changed[0] and ours in changed[1], changed
    assert _problems(text, cpp, element, fill), "the C++'s program runs right here"
    assert _problems(text, pysdy, element, fill) == []

