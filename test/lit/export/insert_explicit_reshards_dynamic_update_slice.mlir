// RUN: pysdy-opt %s -split-input-file -sdy-insert-explicit-reshards=enable-full-version=true | filecheck %s
// REQUIRES: !dynamic_update_slice_permutes_sliced_dims

// The full version on dynamic_update_slice, whose update factors need replication unless every start index is a constant
// (jaxlib 0.10; from 0.11 on both sides of a sliced dimension are permutation factors).

sdy.mesh @mesh = <["x"=4, "y"=2]>

// With constant start indices the update keeps its sharding along its own factors, except an axis the
// operand and result already use on another factor.
// CHECK-LABEL: func @constant_indices_axis_on_two_factors
// CHECK-NEXT: %c = stablehlo.constant dense<4> : tensor<i32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %0 = sdy.reshard %arg1 <@mesh, [{}, {"y"}]> : tensor<4x8xf32>
// CHECK-NEXT: %1 = stablehlo.dynamic_update_slice %arg0, %0, %c, %c_0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %2 : tensor<8x16xf32>
func.func @constant_indices_axis_on_two_factors(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %c = stablehlo.constant dense<4> : tensor<i32>
  %c_0 = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %c, %c_0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// With constant start indices and no axis in common, the update keeps its sharding.
// CHECK-LABEL: func @constant_indices_disjoint_axes
// CHECK-NEXT: %c = stablehlo.constant dense<4> : tensor<i32>
// CHECK-NEXT: %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %c, %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %1 : tensor<8x16xf32>
func.func @constant_indices_disjoint_axes(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x16xf32> {
  %c = stablehlo.constant dense<4> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %c, %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// A start index that is an argument replicates the update along its sliced dimensions.
// CHECK-LABEL: func @argument_index
// CHECK-NEXT: %c = stablehlo.constant dense<4> : tensor<i32>
// CHECK-NEXT: %0 = sdy.reshard %arg1 <@mesh, [{}, {}]> : tensor<4x8xf32>
// CHECK-NEXT: %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %2 : tensor<8x16xf32>
func.func @argument_index(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg2: tensor<i32>) -> tensor<8x16xf32> {
  %c = stablehlo.constant dense<4> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %c {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
