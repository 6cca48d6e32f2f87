// RUN: pysdy-opt %s -split-input-file -sdy-insert-explicit-reshards=enable-full-version=true | filecheck %s

// The full version on reshapes whose axes do not split evenly over their factors (overflow axes), on ops whose
// result shardings change where the op keeps them, and on unreduced sub-axes. Expected output: jaxlib's C++
// pass on this input.

sdy.mesh @mesh = <["x"=2, "y"=3]>

// The operand's "y" does not divide the factor of size 2 it starts on (an overflow axis); the operand is the more
// sharded side, so its axes are handed again to the factors, across dimensions: "y" joins "x" on the first.
// CHECK-LABEL: func.func @reshape_overflow_axis_moves_to_another_dim(%arg0: tensor<12x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<12x2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x", "y"}, {}]> : tensor<12x4xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : (tensor<12x4xf32>) -> tensor<12x2x2xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{"x"}, {}, {}]> : tensor<12x2x2xf32>
// CHECK-NEXT: return %2 : tensor<12x2x2xf32>
// CHECK-NEXT: }
func.func @reshape_overflow_axis_moves_to_another_dim(%arg0: tensor<12x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<12x2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<12x4xf32>) -> tensor<12x2x2xf32>
  return %0 : tensor<12x2x2xf32>
}

// -----

sdy.mesh @mesh_yz = <["y"=3, "z"=4]>

// The result is the more sharded side ("z" does not divide its dimension of size 2): its axes, "y" then "z", are
// handed again to the factors; both fit the first one (12), so each side is sharded on its first dimension.
// CHECK-LABEL: func.func @reshape_overflow_result_preferred(%arg0: tensor<12x4xf32> {sdy.sharding = #sdy.sharding<@mesh_yz, [{}, {"y"}]>}) -> tensor<12x2x2xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh_yz, [{"y", "z"}, {}]> : tensor<12x4xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_yz, [{"y", "z"}, {}, {}]>]>} : (tensor<12x4xf32>) -> tensor<12x2x2xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh_yz, [{"y"}, {"z"}, {}]> : tensor<12x2x2xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh_yz, [{}, {}, {}]> : tensor<12x2x2xf32>
// CHECK-NEXT: return %3 : tensor<12x2x2xf32>
// CHECK-NEXT: }
func.func @reshape_overflow_result_preferred(%arg0: tensor<12x4xf32> {sdy.sharding = #sdy.sharding<@mesh_yz, [{}, {"y"}]>}) -> tensor<12x2x2xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_yz, [{"y"}, {"z"}, {}]>]>} : (tensor<12x4xf32>) -> tensor<12x2x2xf32>
  return %0 : tensor<12x2x2xf32>
}

// -----

sdy.mesh @mesh_yz = <["y"=3, "z"=4]>

// Equal sharding sizes prefer the operand; open dimensions stay open.
// CHECK-LABEL: func.func @reshape_overflow_open_dims(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh_yz, [{?}, {"y", ?}]>}) -> tensor<6x2x4xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh_yz, [{"y", ?}, {?}]> : tensor<6x8xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_yz, [{"y"}, {}, {?}]>]>} : (tensor<6x8xf32>) -> tensor<6x2x4xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh_yz, [{}, {}, {"y", ?}]> : tensor<6x2x4xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh_yz, [{}, {}, {}]> : tensor<6x2x4xf32>
// CHECK-NEXT: return %3 : tensor<6x2x4xf32>
// CHECK-NEXT: }
func.func @reshape_overflow_open_dims(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh_yz, [{?}, {"y", ?}]>}) -> tensor<6x2x4xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_yz, [{}, {}, {"y", ?}]>]>} : (tensor<6x8xf32>) -> tensor<6x2x4xf32>
  return %0 : tensor<6x2x4xf32>
}

// -----

sdy.mesh @mesh_xyz = <["x"=2, "y"=3, "z"=3]>

// The result's first dimension splits into factors 8, 3 and 6; "y" overflows the first, so the projection keeps
// no sharding for the third. The operand's axes, handed to the result's factors, would give it "y": that is dropped.
// CHECK-LABEL: func.func @reshape_overflow_factor_left_out(%arg0: tensor<8x3x6x8xf32> {sdy.sharding = #sdy.sharding<@mesh_xyz, [{"x"}, {"z"}, {}, {"y"}]>}) -> tensor<144x8xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh_xyz, [{"x"}, {}, {}, {}]> : tensor<8x3x6x8xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_xyz, [{"x"}, {}]>]>} : (tensor<8x3x6x8xf32>) -> tensor<144x8xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh_xyz, [{"y"}, {"x", "z"}]> : tensor<144x8xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh_xyz, [{}, {}]> : tensor<144x8xf32>
// CHECK-NEXT: return %3 : tensor<144x8xf32>
// CHECK-NEXT: }
func.func @reshape_overflow_factor_left_out(%arg0: tensor<8x3x6x8xf32> {sdy.sharding = #sdy.sharding<@mesh_xyz, [{"x"}, {"z"}, {}, {"y"}]>}) -> tensor<144x8xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_xyz, [{"y"}, {"x", "z"}]>]>} : (tensor<8x3x6x8xf32>) -> tensor<144x8xf32>
  return %0 : tensor<144x8xf32>
}

// -----

sdy.mesh @mesh_yz = <["y"=3, "z"=4]>

// Both operand axes overflow the factor of size 2; handed again to the factors, "y" fits only the last one (3) and
// "z":(1)2 the first. The operand written back keeps only the first (its second dimension would need a strided
// view), so the factors agree on "z":(1)2 alone.
// CHECK-LABEL: func.func @reshape_overflow_sub_axes(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh_yz, [{}, {"y", "z":(1)2}]>}) -> tensor<8x2x3xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh_yz, [{"z":(1)2}, {}]> : tensor<8x6xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_yz, [{"z":(1)2}, {}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x2x3xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh_yz, [{"z"}, {}, {}]> : tensor<8x2x3xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh_yz, [{}, {}, {}]> : tensor<8x2x3xf32>
// CHECK-NEXT: return %3 : tensor<8x2x3xf32>
// CHECK-NEXT: }
func.func @reshape_overflow_sub_axes(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh_yz, [{}, {"y", "z":(1)2}]>}) -> tensor<8x2x3xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_yz, [{"z"}, {}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x2x3xf32>
  return %0 : tensor<8x2x3xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=3]>

// A sharding constraint keeps its result's sharding in its own `sharding`: that is where the full version
// rewrites it, resharding back to the old one after it.
// CHECK-LABEL: func.func @sharding_constraint_result_resharded(%arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) -> (tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
// CHECK-NEXT: %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x", "y"}]> : tensor<12xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{"x"}]> : tensor<12xf32>
// CHECK-NEXT: return %1 : tensor<12xf32>
// CHECK-NEXT: }
func.func @sharding_constraint_result_resharded(%arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) -> (tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<12xf32>
  return %0 : tensor<12xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// The sort had no sharding: setting its first result's new sharding gives the second a fully open one, so the
// second result is resharded back to that open sharding, the first to a closed one.
// CHECK-LABEL: func.func @unsharded_multi_result_op_resharded(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
// CHECK-NEXT: %1:2 = "stablehlo.sort"(%0, %arg1) <{dimension = 0 : i64, is_stable = false}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<f32>, %arg5: tensor<f32>):
// CHECK-NEXT: %4 = stablehlo.compare GT, %arg2, %arg3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %4 : tensor<i1>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>, <@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK-NEXT: %2 = sdy.reshard %1#0 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %3 = sdy.reshard %1#1 <@mesh, [{?}, {?}]> : tensor<8x16xf32>
// CHECK-NEXT: return %2, %3 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
func.func @unsharded_multi_result_op_resharded(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %a2: tensor<f32>, %a3: tensor<f32>):
    %r = stablehlo.compare GT, %a0, %a1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=6]>

// The operand's unreduced "x":(2)3 and the result's "x":(1)3 overlap but are no consistent split of "x": the
// difference of the two sets drops the operand's axis whole, so there is nothing to all-reduce.
// CHECK-LABEL: func.func @unreduced_sub_axes_that_cannot_coexist(%arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x":(2)3}>}) -> tensor<12xf32> {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x":(1)3}>]>} : tensor<12xf32>
// CHECK-NEXT: %1 = sdy.all_reduce {"x":(1)3} %0 out_sharding=<@mesh, [{}]> : tensor<12xf32>
// CHECK-NEXT: return %1 : tensor<12xf32>
// CHECK-NEXT: }
func.func @unreduced_sub_axes_that_cannot_coexist(%arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x":(2)3}>}) -> tensor<12xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x":(1)3}>]>} : tensor<12xf32>
  return %0 : tensor<12xf32>
}
