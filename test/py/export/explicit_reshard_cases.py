"""Hand-written inputs for `sdy-sharding-constraint-to-reshard` and `sdy-insert-explicit-reshards`: one function per module, as the export pipeline hands them over (closed shardings)."""

from __future__ import annotations

MESHES = """
sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @mesh_xyz = <["x"=2, "y"=2, "z"=2]>
sdy.mesh @mesh_x4yz = <["x"=4, "y"=2, "z"=2]>
sdy.mesh @mesh_rev = <["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
sdy.mesh @mesh_other = <["a"=8]>
sdy.mesh @maximal = <[], device_ids=[0]>
sdy.mesh @mesh_x2y3 = <["x"=2, "y"=3]>
sdy.mesh @mesh_y3z4 = <["y"=3, "z"=4]>
sdy.mesh @mesh_x2y3z3 = <["x"=2, "y"=3, "z"=3]>
sdy.mesh @mesh_x6 = <["x"=6]>
sdy.mesh @maximal_copy = <[], device_ids=[0]>
sdy.mesh @maximal_1 = <[], device_ids=[1]>
"""

_FUNCS = {
    "constraints_nested_and_with_attrs": """
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {?}]> {foo = 1 : i64} : tensor<8x8xf32>
  %1 = stablehlo.while(%iterArg = %0) : tensor<8x8xf32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %2 = sdy.sharding_constraint %iterArg <@mesh, [{}, {"y"}], replicated={"x"}> : tensor<8x8xf32>
    stablehlo.return %2 : tensor<8x8xf32>
  }
  return %1 : tensor<8x8xf32>
}""",
    "dot_result_sharded_by_contraction": """
func.func @main(%arg0: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                %arg1: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<4x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}""",
    "dot_conflicting_non_contracting": """
func.func @main(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}""",
    "dot_general_batching_conflict": """
func.func @main(%arg0: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}, {}]>},
                %arg1: tensor<4x32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>}) -> (tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"y"}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}, {}]>]>} : (tensor<4x8x32xf32>, tensor<4x32x16xf32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}""",
    "dot_contracting_sharded_compatible": """
func.func @main(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}""",
    "reduce_over_sharded_dim": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<8xf32> {
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}""",
    "reduce_into_unreduced_result": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<8xf32> {
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}], unreduced={"x"}>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}""",
    "dot_into_partially_unreduced_result": """
func.func @main(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>},
                %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}""",
    "elementwise_mismatched_operands": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>},
                %arg3: tensor<8x16xi1> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  %1 = stablehlo.select %arg3, %arg1, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x16xi1>, tensor<8x16xf32>
  %2 = stablehlo.multiply %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}""",
    "unary_ops_and_transpose": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : tensor<8x16xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %2 = stablehlo.reverse %1, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<16x8xf32>
  return %2 : tensor<16x8xf32>
}""",
    "reshapes": """
func.func @main(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<4x4x4xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : (tensor<16x4xf32>) -> tensor<64xf32>
  %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}]>]>} : (tensor<64xf32>) -> tensor<4x4x4xf32>
  return %1 : tensor<4x4x4xf32>
}""",
    "reshape_with_overflow_axes": """
func.func @main(%arg0: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<24xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : (tensor<6x4xf32>) -> tensor<24xf32>
  return %0 : tensor<24xf32>
}""",
    "reshape_splitting_an_axis": """
func.func @main(%arg0: tensor<24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<6x4xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : (tensor<24xf32>) -> tensor<6x4xf32>
  %1 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<24xf32>) -> tensor<6x4xf32>
  %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<6x4xf32>
  return %2 : tensor<6x4xf32>
}""",
    # Found by random differential testing: which factor-axes pair the full version picks first.
    "dot_general_sub_axis_prefix_counts": """
func.func @main(%arg0: tensor<8x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x4yz, [{"x":(1)2}, {}, {"y"}]>},
                %arg1: tensor<8x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x4yz, [{"x", "y"}, {}, {}]>}) -> tensor<4x8x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [2] x [2], contracting_dims = [1] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x4yz, [{}, {"x"}, {"y"}]>]>} : (tensor<8x16x4xf32>, tensor<8x16x4xf32>) -> tensor<4x8x8xf32>
  return %0 : tensor<4x8x8xf32>
}""",
    "dot_general_tie_broken_by_factor": """
func.func @main(%arg0: tensor<8x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x4yz, [{"y"}, {}, {}]>},
                %arg1: tensor<8x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x4yz, [{"x":(1)2, "y"}, {}, {}]>}) -> (tensor<4x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x4yz, [{}, {}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [2] x [2], contracting_dims = [1] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x4yz, [{"z"}, {}, {"x"}]>]>} : (tensor<8x16x4xf32>, tensor<8x16x4xf32>) -> tensor<4x8x8xf32>
  return %0 : tensor<4x8x8xf32>
}""",
    "concatenate_axes_move_to_batching_factor": """
func.func @main(%arg0: tensor<8x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x4yz, [{}, {"z"}, {"y"}]>},
                %arg1: tensor<8x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x4yz, [{"z"}, {"x"}, {"y"}]>}) -> tensor<8x32x4xf32> {
  %0 = stablehlo.concatenate %arg0, %arg1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x4yz, [{"y"}, {}, {"x":(1)2}]>]>} : (tensor<8x16x4xf32>, tensor<8x16x4xf32>) -> tensor<8x32x4xf32>
  return %0 : tensor<8x32x4xf32>
}""",
    "sub_axes": """
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)2}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y"}, {}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}, {"y"}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.dot %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(2)2}, {"x":(1)2}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}""",
    "unreduced_input_to_replicated": """
func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y"}>},
                %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) -> (tensor<4x8xf32>, tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>} : tensor<4x8xf32>
  %1 = stablehlo.multiply %arg0, %arg1 : tensor<4x8xf32>
  return %1, %0 : tensor<4x8xf32>, tensor<4x8xf32>
}""",
    "reshard_to_unreduced": """
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {}], unreduced={"x", "y"}> : tensor<8x8xf32>
  %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}""",
    "replicated_to_unreduced": """
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}""",
    "meshes_with_other_device_order": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_rev, [{"x"}, {}]>},
                %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_rev, [{"x"}, {}]>]>} : tensor<8x16xf32>
  %1 = stablehlo.subtract %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}""",
    "different_meshes_and_maximal": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_other, [{"a"}, {}]>},
                %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : tensor<8x16xf32>
  %2 = stablehlo.abs %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}""",
    "return_mismatch_and_unsharded": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, tensor<8x16xf32>, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_other, [{}, {}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], replicated={"y"}>}) {
  return %arg0, %arg0, %arg1, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}""",
    "while_case_and_barrier": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<i32>) -> tensor<8x16xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
    stablehlo.return %1 : tensor<8x16xf32>
  }
  %2 = "stablehlo.case"(%arg1) ({
    stablehlo.return %0 : tensor<8x16xf32>
  }, {
    %3 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x16xf32>
    stablehlo.return %3 : tensor<8x16xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<i32>) -> tensor<8x16xf32>
  %4 = "stablehlo.optimization_barrier"(%2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %5 = "stablehlo.optimization_barrier"(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}""",
    "named_and_manual_computations": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{"y"}, {}]>] (%arg1: tensor<8x16xf32>) {
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x16xf32>
    sdy.return %1 : tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x", "y"}, {}]>] manual_axes={"x"} (%arg2: tensor<2x16xf32>) {
    %3 = stablehlo.abs %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<2x16xf32>
    sdy.return %3 : tensor<2x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}""",
    "concatenate_and_need_replication": """
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.concatenate %arg0, %arg1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.concatenate %arg1, %arg1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}""",
    "calls": """
func.func @callee(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
func.func @plain(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = call @callee(%arg0, %arg0) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = call @plain(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}""",
    "gather_and_dynamic_slice": """
func.func @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<i32>) -> tensor<4x8xf32> {
  %0 = stablehlo.dynamic_slice %arg0, %arg1, %arg1, sizes = [4, 8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}""",
    # With constant start indices the update's own factors are pass-through, so an axis on one of them
    # that the operand also uses on another factor is a conflict between factors.
    "dynamic_update_slice_axis_on_two_factors": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg2: tensor<i32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %c = stablehlo.constant dense<4> : tensor<i32>
  %c_0 = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %c, %c_0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  %1 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %c_0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  %2 = stablehlo.dynamic_update_slice %arg0, %arg1, %c_0, %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}""",
    "non_divisible_and_three_axes": """
func.func @main(%arg0: tensor<6x10xf32> {sdy.sharding = #sdy.sharding<@mesh_xyz, [{"x", "y"}, {"z"}]>},
                %arg1: tensor<6x10xf32> {sdy.sharding = #sdy.sharding<@mesh_xyz, [{"z"}, {"x"}]>}) -> tensor<6x10xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_xyz, [{"y"}, {"x", "z"}]>]>} : tensor<6x10xf32>
  return %0 : tensor<6x10xf32>
}""",
    "return_to_unreduced": """
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  return %0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>
}""",
    "unreduced_through_while_and_call": """
func.func @callee(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8x8xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %iterArg : tensor<8x8xf32>
  }
  %1 = call @callee(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}""",
    "dot_into_unreduced_sub_axis": """
func.func @main(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x":(1)2}>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x":(1)2}>]>} : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}""",
    # Reshapes whose axes overflow a factor: the full version hands the axes of the more sharded side to the
    # factors again (test/lit/export/insert_explicit_reshards_full.mlir explains each).
    "reshape_overflow_axis_moves_to_another_dim": """
func.func @main(%arg0: tensor<12x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x2y3, [{"x"}, {"y"}]>}) -> (tensor<12x2x2xf32> {sdy.sharding = #sdy.sharding<@mesh_x2y3, [{"x"}, {}, {}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2y3, [{"x"}, {}, {}]>]>} : (tensor<12x4xf32>) -> tensor<12x2x2xf32>
  return %0 : tensor<12x2x2xf32>
}""",
    "reshape_overflow_result_preferred": """
func.func @main(%arg0: tensor<12x4xf32> {sdy.sharding = #sdy.sharding<@mesh_y3z4, [{}, {"y"}]>}) -> tensor<12x2x2xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_y3z4, [{"y"}, {"z"}, {}]>]>} : (tensor<12x4xf32>) -> tensor<12x2x2xf32>
  return %0 : tensor<12x2x2xf32>
}""",
    "reshape_overflow_open_dims": """
func.func @main(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh_y3z4, [{?}, {"y", ?}]>}) -> tensor<6x2x4xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_y3z4, [{}, {}, {"y", ?}]>]>} : (tensor<6x8xf32>) -> tensor<6x2x4xf32>
  return %0 : tensor<6x2x4xf32>
}""",
    "reshape_overflow_factor_left_out": """
func.func @main(%arg0: tensor<8x3x6x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x2y3z3, [{"x"}, {"z"}, {}, {"y"}]>}) -> tensor<144x8xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x2y3z3, [{"y"}, {"x", "z"}]>]>} : (tensor<8x3x6x8xf32>) -> tensor<144x8xf32>
  return %0 : tensor<144x8xf32>
}""",
    "reshape_overflow_sub_axes": """
func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh_y3z4, [{}, {"y", "z":(1)2}]>}) -> tensor<8x2x3xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_y3z4, [{"z"}, {}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x2x3xf32>
  return %0 : tensor<8x2x3xf32>
}""",
    "sharding_constraint_result_resharded": """
func.func @main(%arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh_x2y3, [{"x", "y"}]>}) -> (tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh_x2y3, [{"x"}]>}) {
  %0 = sdy.sharding_constraint %arg0 <@mesh_x2y3, [{"x"}]> : tensor<12xf32>
  return %0 : tensor<12xf32>
}""",
    # The sort had no sharding: its second result is resharded back to the open sharding it got when the first
    # result's was set.
    "unsharded_multi_result_op_resharded": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_xyz, [{}, {"x"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_xyz, [{}, {"y"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %a2: tensor<f32>, %a3: tensor<f32>):
    %r = stablehlo.compare GT, %a0, %a1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}""",
    # Unreduced sub-axes that are no consistent split of one axis: the set difference drops the operand's whole.
    "unreduced_sub_axes_that_cannot_coexist": """
func.func @main(%arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh_x6, [{}], unreduced={"x":(2)3}>}) -> tensor<12xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x6, [{}], unreduced={"x":(1)3}>]>} : tensor<12xf32>
  return %0 : tensor<12xf32>
}""",
    # Host callbacks (ops on a maximal mesh): from jax 0.11 their operands go to the device through replicated
    # on the first non-maximal mesh, and their results come back replicated there.
    "callback_on_sharded_operand": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_xyz, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.add %0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_xyz, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}""",
    "callbacks_in_a_row_with_token": """
func.func @main(%arg0: !stablehlo.token, %arg1: tensor<8x16xf32>) -> (!stablehlo.token, tensor<8x16xf32>) {
  %0:2 = stablehlo.custom_call @cb(%arg0, %arg1) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal, []>]>} : (!stablehlo.token, tensor<8x16xf32>) -> (!stablehlo.token, tensor<8x16xf32>)
  %1 = stablehlo.custom_call @cb2(%0#1) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
  return %0#0, %2 : !stablehlo.token, tensor<8x16xf32>
}""",
    # A reshard to a maximal mesh is a single-device op too, so a callback the pass has handled gets reshards again
    # when the pass runs a second time (the export pipeline after the propagation pipeline).
    "callback_resharded_again": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x16xf32>
  %1 = sdy.reshard %0 <@maximal, []> : tensor<8x16xf32>
  %2 = stablehlo.custom_call @cb(%1) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %3 = sdy.reshard %2 <@mesh, [{}, {}]> : tensor<8x16xf32>
  %4 = sdy.reshard %3 <@maximal, []> : tensor<8x16xf32>
  %5 = stablehlo.negate %4 : tensor<8x16xf32>
  return %5 : tensor<8x16xf32>
}""",
    # Operands on the op's maximal mesh, on others (of its device or another), replicated and sharded; a data-flow
    # op and a call on a maximal mesh, and an op without results, are no single-device ops.
    "callback_operands_on_maximal_meshes": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %c0 = stablehlo.custom_call @cb(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %c1 = stablehlo.custom_call @cb(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_copy, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %c2 = stablehlo.custom_call @cb(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_1, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %0:4 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal_copy, []>, <@maximal_1, []>, <@mesh, [{}, {?}], replicated={"x"}>]>} %c0, %c1, %c2, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
  %1 = stablehlo.custom_call @cb(%0#0, %0#1, %0#2, %0#3, %arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  stablehlo.custom_call @cb(%1) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>) -> ()
  %2 = func.call @f(%1) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
func.func private @f(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  return %arg0 : tensor<8x16xf32>
}""",
    # One tensor result on a maximal mesh puts all of them on the last such mesh (a token keeps its sharding); each
    # comes back replicated, then goes on to the sharding it had when that was another.
    "callback_results_on_several_meshes": """
func.func @main(%arg0: !stablehlo.token, %arg1: tensor<8x16xf32>) -> (!stablehlo.token, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:6 = stablehlo.custom_call @cb(%arg0, %arg1) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{?}, {?}]>, <@maximal_copy, []>, <@mesh, [{}, {}]>, <@maximal, []>, <@mesh_other, [{"a"}, {}]>]>} : (!stablehlo.token, tensor<8x16xf32>) -> (!stablehlo.token, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>)
  %1 = sdy.sharding_constraint %0#1 <@maximal_1, []> : tensor<8x16xf32>
  return %0#0, %1, %0#2, %0#3, %0#4, %0#5 : !stablehlo.token, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}""",
    # A reduce over a sharded dimension: from jax 0.11 the all-reduce takes the body's reduction.
    "reduce_max_over_sharded_dimension": """
func.func @main(%arg0: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh_xyz, [{"x"}, {"z"}]>}) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_xyz, [{"x"}]>]>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.minimum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_xyz, [{"x"}]>]>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}""",
}

# A reduce of several inputs whose body mixes reductions (an argmax) over a sharded dimension: jax 0.10 and 0.11
# all-reduce its results (a sum), jax 0.12 leaves them partial (a wrong result), where pysdy refuses.
MIXED_REDUCE = MESHES + """
func.func @main(%arg0: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh_xyz, [{"x"}, {"z"}]>}, %arg1: tensor<4x16xi32> {sdy.sharding = #sdy.sharding<@mesh_xyz, [{"x"}, {"z"}]>}) -> (tensor<4xf32>, tensor<4xi32>) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %i = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%arg0 init: %c), (%arg1 init: %i) across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_xyz, [{"x"}]>, <@mesh_xyz, [{"x"}]>]>} : (tensor<4x16xf32>, tensor<4x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
    reducer(%a: tensor<f32>, %b: tensor<f32>) (%x: tensor<i32>, %y: tensor<i32>) {
      %g = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %s = stablehlo.select %g, %a, %b : tensor<i1>, tensor<f32>
      %t = stablehlo.select %g, %x, %y : tensor<i1>, tensor<i32>
      stablehlo.return %s, %t : tensor<f32>, tensor<i32>
    }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}
"""

ALL = {name: MESHES + body for name, body in _FUNCS.items()}

# An op whose tensor results are on maximal meshes of two devices: from jax 0.11 the pass fails on it.
SINGLE_DEVICE_CONFLICT = MESHES + """
func.func @main(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:2 = stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_1, []>, <@maximal, []>]>} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}
"""
