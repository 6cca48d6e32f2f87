"""Propagation run alone, before the import pipeline adds data-flow edges, gives exactly jaxlib's C++ output.

Without edges, a named or manual computation keeps its edge owners' shardings
in its in_shardings and out_shardings, and a while's block arguments share its
results' shardings.
"""

import pytest

from jax_corpus import corpus, program_names
from propagation_oracle import cpp_output, first_difference, pysdy_output
from test_propagation_on_jax_programs import PASSES

MESH = 'sdy.mesh @mesh = <["a"=2, "b"=4]>\n'

# A manual computation's result sharding reaches the ops using it and the function result.
MANUAL_RESULT_FLOWS_OUT = MESH + """
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%x: tensor<4xf32>) {
    %1 = stablehlo.abs %x : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %2 = stablehlo.abs %0 : tensor<8xf32>
  return %2 : tensor<8xf32>
}
"""

# ... and a constant added to it.
MANUAL_RESULT_MEETS_CONSTANT = MESH + """
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%x: tensor<4xf32>) {
    sdy.return %x : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.constant dense<1.0> : tensor<8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{"a"}]> : tensor<8xf32>
  return %3 : tensor<8xf32>
}
"""

# Open dimensions of out_shardings take a user sharding from outside; body arguments are seen without
# the manual axes.
MANUAL_OPEN_SHARDINGS = MESH + """
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1:2 = sdy.manual_computation(%0, %arg1) in_shardings=[<@mesh, [{"a"}, {?}]>, <@mesh, [{"a"}, {?}]>] out_shardings=[<@mesh, [{"a"}, {?}]>, <@mesh, [{"a"}, {}]>] manual_axes={"a"} (%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) {
    %4 = stablehlo.abs %x : tensor<4x16xf32>
    %5 = stablehlo.add %4, %y : tensor<4x16xf32>
    sdy.return %5, %4 : tensor<4x16xf32>, tensor<4x16xf32>
  } : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %3 = stablehlo.add %1#0, %arg1 : tensor<8x16xf32>
  return %3, %1#1 : tensor<8x16xf32>, tensor<8x16xf32>
}
"""

# An operand sharded on the manual axis and a free one, open in in_shardings.
MANUAL_OPEN_IN_SHARDINGS = MESH + """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%x: tensor<4x16xf32>) {
    %1 = stablehlo.abs %x : tensor<4x16xf32>
    sdy.return %1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
"""

# A named computation without shardings, and a while loop.
NAMED_COMPUTATION_AND_WHILE = MESH + """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:2 = sdy.named_computation<"f">(%arg0, %arg1) (%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) {
    %1 = stablehlo.abs %x : tensor<8x16xf32>
    %2 = stablehlo.add %1, %y : tensor<8x16xf32>
    sdy.return %1, %2 : tensor<8x16xf32>, tensor<8x16xf32>
  } : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %c = stablehlo.constant dense<0> : tensor<i32>
  %3:2 = stablehlo.while(%i = %c, %z = %arg0) : tensor<i32>, tensor<8x16xf32>
    cond {
      %lim = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %lim : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %a = stablehlo.abs %z : tensor<8x16xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %n, %a : tensor<i32>, tensor<8x16xf32>
    }
  %4 = stablehlo.add %0#1, %3#1 : tensor<8x16xf32>
  return %0#0, %4 : tensor<8x16xf32>, tensor<8x16xf32>
}
"""

CASES = {
    "manual_result_flows_out": MANUAL_RESULT_FLOWS_OUT,
    "manual_result_meets_constant": MANUAL_RESULT_MEETS_CONSTANT,
    "manual_open_shardings": MANUAL_OPEN_SHARDINGS,
    "manual_open_in_shardings": MANUAL_OPEN_IN_SHARDINGS,
    "named_computation_and_while": NAMED_COMPUTATION_AND_WHILE,
}

_REGION_OPS = ("sdy.manual_computation", "sdy.named_computation", "stablehlo.while")


@pytest.mark.parametrize("pass_", PASSES)
@pytest.mark.parametrize("case", list(CASES))
def test_pass_matches_cpp(case, pass_):
    expected = cpp_output(CASES[case], pass_)
    actual = pysdy_output(CASES[case], pass_)
    assert actual == expected, first_difference(expected, actual)


@pytest.mark.parametrize("pass_", PASSES)
@pytest.mark.parametrize("program", program_names())
def test_pass_on_jax_program_not_imported_matches_cpp(program, pass_):
    text = corpus()[program]
    if not any(op in text for op in _REGION_OPS):
        pytest.skip("no op with data-flow edges")
    expected = cpp_output(text, pass_)
    actual = pysdy_output(text, pass_)
    assert actual == expected, first_difference(expected, actual)
