// RUN: pysdy-opt %s -sdy-op-priority-propagate -split-input-file | filecheck %s

// sdy-op-priority-propagate: the schedule's use-count rule and single worklist pass, as jaxlib's C++ does them.

sdy.mesh @mesh = <["x"=3, "y"=4, "z"=3]>

// CHECK-LABEL: func @multi_use_operand_waits(
// CHECK-SAME:      %arg0: tensor<4x1x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"x", ?}, {"z", ?}]>}) -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", "x", ?}, {"y", ?}]>}) {
// CHECK-NEXT:    %0 = sdy.sharding_constraint %arg0 <@mesh, [{?}, {"x"}, {"z"}]> : tensor<4x1x4xf32>
// CHECK-NEXT:    %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"z", ?}]>]>} : (tensor<4x1x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:    %2 = stablehlo.add %1, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z", "x", ?}, {"y", ?}]>]>} : tensor<4x4xf32>
// CHECK-NEXT:    %3 = sdy.sharding_constraint %2 <@mesh, [{"z", "x", ?}, {"y", ?}]> : tensor<4x4xf32>
// CHECK-NEXT:    return %3 : tensor<4x4xf32>
// CHECK-NEXT:  }
// An operand with several uses keeps an elementwise op out of the first op-priority
// step, so the constraint after it wins over the reshape before it.
func.func @multi_use_operand_waits(%arg0: tensor<4x1x4xf32>) -> tensor<4x4xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{?}, {"x"}, {"z"}]> : tensor<4x1x4xf32>
  %1 = stablehlo.reshape %0 : (tensor<4x1x4xf32>) -> tensor<4x4xf32>
  %2 = stablehlo.add %1, %1 : tensor<4x4xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{"z", "x", ?}, {"y", ?}]> : tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=3, "y"=4, "z"=3]>

// CHECK-LABEL: func @single_use_operand_goes_first(
// CHECK-SAME:      %arg0: tensor<4x1x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"x", ?}, {"z", ?}]>}, %arg1: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"z", ?}]>}) -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", "x", ?}, {"y", ?}]>}) {
// CHECK-NEXT:    %0 = sdy.sharding_constraint %arg0 <@mesh, [{?}, {"x"}, {"z"}]> : tensor<4x1x4xf32>
// CHECK-NEXT:    %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"z", ?}]>]>} : (tensor<4x1x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:    %2 = stablehlo.add %1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"z", ?}]>]>} : tensor<4x4xf32>
// CHECK-NEXT:    %3 = sdy.sharding_constraint %2 <@mesh, [{"z", "x", ?}, {"y", ?}]> : tensor<4x4xf32>
// CHECK-NEXT:    return %3 : tensor<4x4xf32>
// CHECK-NEXT:  }
// The same chain with single-use operands: the reshape's sharding flows forward first.
func.func @single_use_operand_goes_first(%arg0: tensor<4x1x4xf32>, %arg1: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{?}, {"x"}, {"z"}]> : tensor<4x1x4xf32>
  %1 = stablehlo.reshape %0 : (tensor<4x1x4xf32>) -> tensor<4x4xf32>
  %2 = stablehlo.add %1, %arg1 : tensor<4x4xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{"z", "x", ?}, {"y", ?}]> : tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "z"=3]>

// CHECK-LABEL: func @erased_user_does_not_reopen_the_step(
// CHECK-SAME:      %arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", "x"}, {?}]>}) -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "z", ?}, {?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z", "x", ?}, {?}]>]>} : tensor<4x4xf32>
// CHECK-NEXT:    %1 = sdy.sharding_constraint %0 <@mesh, [{"x", "z"}, {}]> : tensor<4x4xf32>
// CHECK-NEXT:    return %1 : tensor<4x4xf32>
// CHECK-NEXT:  }
// A dead user of %0 is erased during the first step, but the constraint it held back
// is not revisited within that step; the add then propagates first in the next one.
func.func @erased_user_does_not_reopen_the_step(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", "x"}, {?}]>}) -> tensor<4x4xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4x4xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"x", "z"}, {}]> : tensor<4x4xf32>
  %2 = stablehlo.abs %0 : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @main(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}, %arg2: tensor<16x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.dot_general %arg1, %arg2, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %1 = call @f(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %2 = sdy.func_data_flow_edge %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    %3 = stablehlo.add %2, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %3 : tensor<8x16xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @f(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT:    %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %1 : tensor<8x16xf32>
// CHECK-NEXT:  }
// Function data-flow edges (calls kept by dedup-functions-fully) are pass-through ops: %arg0's
// sharding crosses the call in the first step, before the dot's non-contracting dimension brings "b".
// (jaxlib needs a @main once there are function data-flow edges.)
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
