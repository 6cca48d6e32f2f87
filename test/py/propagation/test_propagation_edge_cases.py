"""Every propagation pass gives exactly jaxlib's C++ output on hand-written modules the JAX corpus reaches rarely.

The modules are in the form propagation receives them (data-flow edges added).
"""

import pytest

from oracle import cpp_output
from propagation_oracle import first_difference, pysdy_output
from test_propagation_on_jax_programs import PASSES

MESH = 'sdy.mesh @mesh = <["a"=2, "b"=4]>\n'

# The operand of a named computation is sharded after the edge on its block argument was
# visited: Shardy then revisits the named computation, not that edge.
NAMED_COMPUTATION_OPERAND_SHARDED_LATER = MESH + """
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = sdy.named_computation<"f">(%0) (%arg2: tensor<8x16xf32>) {
    %4 = sdy.data_flow_edge %arg2 : tensor<8x16xf32>
    %5 = stablehlo.abs %4 : tensor<8x16xf32>
    sdy.return %5 : tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = sdy.data_flow_edge %1 : tensor<8x16xf32>
  %3 = stablehlo.add %0, %arg1 : tensor<8x16xf32>
  return %2, %3 : tensor<8x16xf32>, tensor<8x16xf32>
}
"""

# The same inside a while loop (as in a scan over layers): the body's block argument is
# sharded when the while's edge is visited, after the named computation it feeds.
NAMED_COMPUTATION_IN_WHILE_BODY = MESH + """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> tensor<8x16xf32> {
  %c = sdy.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c, %x = %arg0) : tensor<i32>, tensor<8x16xf32>
    cond {
      %lim = sdy.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %lim : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %y = sdy.named_computation<"g">(%x) (%arg1: tensor<8x16xf32>) {
        %e = sdy.data_flow_edge %arg1 : tensor<8x16xf32>
        %a = stablehlo.abs %e : tensor<8x16xf32>
        sdy.return %a : tensor<8x16xf32>
      } : (tensor<8x16xf32>) -> tensor<8x16xf32>
      %z = sdy.data_flow_edge %y : tensor<8x16xf32>
      %one = sdy.constant dense<1> : tensor<i32>
      %n = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %n, %x : tensor<i32>, tensor<8x16xf32>
    }
  %1 = sdy.data_flow_edge %0#0 : tensor<i32>
  %2 = sdy.data_flow_edge %0#1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
"""

# A manual computation's operand sharded late, likewise.
MANUAL_COMPUTATION_OPERAND_SHARDED_LATER = MESH + """
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a"}, {?}]>] out_shardings=[<@mesh, [{"a"}, {?}]>] manual_axes={"a"} (%arg2: tensor<4x16xf32>) {
    %4 = sdy.data_flow_edge %arg2 sharding=<@mesh, [{}, {?}]> : tensor<4x16xf32>
    %5 = stablehlo.abs %4 : tensor<4x16xf32>
    sdy.return %5 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = sdy.data_flow_edge %1 sharding=<@mesh, [{"a"}, {?}]> : tensor<8x16xf32>
  %3 = stablehlo.add %0, %arg1 : tensor<8x16xf32>
  return %2, %3 : tensor<8x16xf32>, tensor<8x16xf32>
}
"""

# Two dynamic_update_slices alike in types and attributes get different rules when only one has
# constant start indices: rules kept on the ops show whether each got its own.
DYNAMIC_UPDATE_SLICES_WITH_CONSTANT_AND_ARGUMENT_INDICES = MESH + """
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg2: tensor<i32>, %arg3: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %c = sdy.constant dense<4> : tensor<i32>
  %c_0 = sdy.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %c, %c_0 : (tensor<8x16xf32>, tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  %1 = stablehlo.dynamic_update_slice %arg3, %arg1, %arg2, %c_0 : (tensor<8x16xf32>, tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
"""

# Calls kept as calls (dedup-functions-fully) with their function data-flow edges: the edges are
# pass-through ops, so %arg0's sharding crosses the call before the dot brings "b".
FUNC_DATA_FLOW_EDGES_PASS_THROUGH = MESH + """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}, %arg2: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %arg1, %arg2, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %1 = call @f(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = sdy.func_data_flow_edge %1 : tensor<8x16xf32>
  %3 = stablehlo.add %2, %0 : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}
func.func private @f(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8x16xf32>
  %1 = stablehlo.abs %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
"""

# Maximal meshes (device ids, no axes; JAX's host callbacks): never compatible with the named mesh, and
# maximal shardings do not propagate, whether the common mesh is maximal through an empty mesh, a loop or a
# function result.
MAXIMAL_MESHES = MESH + """
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
sdy.mesh @empty = <[]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@empty, [{}, {}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}, tensor<8x16xf32>) {
  %0 = stablehlo.sine %arg0 : tensor<8x16xf32>
  %1 = stablehlo.custom_call @cb(%0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.add %1, %arg0 : tensor<8x16xf32>
  %3 = stablehlo.multiply %1, %arg1 : tensor<8x16xf32>
  %c = sdy.constant dense<0> : tensor<i32>
  %4:2 = stablehlo.while(%i = %c, %x = %1) : tensor<i32>, tensor<8x16xf32>
    cond {
      %lim = sdy.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %lim : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %y = stablehlo.custom_call @cb(%x) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
      %z = stablehlo.add %y, %x : tensor<8x16xf32>
      %one = sdy.constant dense<1> : tensor<i32>
      %n = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %n, %z : tensor<i32>, tensor<8x16xf32>
    }
  %5 = sdy.data_flow_edge %4#0 : tensor<i32>
  %6 = sdy.data_flow_edge %4#1 : tensor<8x16xf32>
  %7 = stablehlo.add %6, %2 : tensor<8x16xf32>
  return %7, %3, %0 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
"""

CASES = {
    "named_computation_operand_sharded_later": NAMED_COMPUTATION_OPERAND_SHARDED_LATER,
    "named_computation_in_while_body": NAMED_COMPUTATION_IN_WHILE_BODY,
    "manual_computation_operand_sharded_later": MANUAL_COMPUTATION_OPERAND_SHARDED_LATER,
    "dynamic_update_slices_with_constant_and_argument_indices": DYNAMIC_UPDATE_SLICES_WITH_CONSTANT_AND_ARGUMENT_INDICES,
    "func_data_flow_edges_pass_through": FUNC_DATA_FLOW_EDGES_PASS_THROUGH,
    "maximal_meshes": MAXIMAL_MESHES,
}


@pytest.mark.parametrize("pass_", PASSES)
@pytest.mark.parametrize("case", list(CASES))
def test_pass_matches_cpp(case, pass_):
    expected = cpp_output(CASES[case], pass_)
    actual = pysdy_output(CASES[case], pass_)
    assert actual == expected, first_difference(expected, actual)


@pytest.mark.parametrize("pass_", ["sdy-basic-propagate{keep-sharding-rules=true}", "sdy-user-priority-propagate{keep-sharding-rules=true}"])
@pytest.mark.parametrize("case", list(CASES))
def test_pass_keeping_rules_matches_cpp(case, pass_):
    expected = cpp_output(CASES[case], pass_)
    actual = pysdy_output(CASES[case], pass_)
    assert actual == expected, first_difference(expected, actual)


@pytest.mark.parametrize("pass_", PASSES[:4])
def test_module_dump_directory_gets_no_module_as_with_cpp(pass_, tmp_path):
    """jaxlib's propagation passes accept `module-dump-directory` and write nothing there: nor does pysdy."""
    text = CASES[next(iter(CASES))]
    for side, run in (("cpp", cpp_output), ("pysdy", pysdy_output)):
        directory = tmp_path / side
        directory.mkdir()
        with_dump = run(text, f"{pass_}{{module-dump-directory={directory}}}")
        assert with_dump == run(text, pass_)
        assert not list(directory.iterdir()), side
