// RUN: pysdy-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(sdy-optimize-collectives))" | filecheck %s
// REQUIRES: optimize_collectives

// From jax 0.11, sdy-optimize-collectives exists (and runs after sdy-reshard-to-collectives when explicit
// collectives are inserted). A collective permute reordering the axes of one dimension, followed by all-to-alls
// moving a permuted axis off it, becomes a reshape splitting the dimension (one dimension per axis, then the rest),
// one all-to-all per all-to-all, all-to-alls putting the axes left into the order they end in, and a reshape back.

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK-LABEL: func.func @permute_then_one_axis_all_to_all(
// CHECK-SAME: %arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}, {}]>]>} : (tensor<16x8xf32>) -> tensor<2x2x4x8xf32>
// CHECK-NEXT: %1 = sdy.all_to_all [{"x"}: 0->3] %0 out_sharding=<@mesh, [{}, {"y"}, {}, {"x"}]> : tensor<2x2x4x8xf32>
// CHECK-NEXT: %2 = sdy.all_to_all [{"y"}: 1->0] %1 out_sharding=<@mesh, [{"y"}, {}, {}, {"x"}]> : tensor<2x2x4x8xf32>
// CHECK-NEXT: %3 = stablehlo.reshape %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : (tensor<2x2x4x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: return %3 : tensor<16x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @permute_then_one_axis_all_to_all(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

// The split dimension of size 2 has no rest dimension; the axes left, "z" then "x", are moved in that order.

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK-LABEL: func.func @permute_of_three_axes(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y", "z"}, {}]>}) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {"z"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<2x2x2x8xf32>
// CHECK-NEXT: %1 = sdy.all_to_all [{"y"}: 1->3] %0 out_sharding=<@mesh, [{"x"}, {}, {"z"}, {"y"}]> : tensor<2x2x2x8xf32>
// CHECK-NEXT: %2 = sdy.all_to_all [{"x"}: 0->1] %1 out_sharding=<@mesh, [{}, {"x"}, {"z"}, {"y"}]> : tensor<2x2x2x8xf32>
// CHECK-NEXT: %3 = sdy.all_to_all [{"z"}: 2->0] %2 out_sharding=<@mesh, [{"z"}, {"x"}, {}, {"y"}]> : tensor<2x2x2x8xf32>
// CHECK-NEXT: %4 = stablehlo.reshape %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z", "x"}, {"y"}]>]>} : (tensor<2x2x2x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %4 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @permute_of_three_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y", "z"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"z", "x", "y"}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_to_all [{"y"}: 0->1] %0 out_sharding=<@mesh, [{"z", "x"}, {"y"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

// An all-to-all of two axes is not rewritten.

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK-LABEL: func.func @permute_then_two_axes_all_to_all(
// CHECK-SAME: %arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
// CHECK-NEXT: %1 = sdy.all_to_all [{"y", "x"}: 0->1] %0 out_sharding=<@mesh, [{}, {"y", "x"}]> : tensor<16x8xf32>
// CHECK-NEXT: return %1 : tensor<16x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @permute_then_two_axes_all_to_all(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"y", "x"}: 0->1] %0 out_sharding=<@mesh, [{}, {"y", "x"}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

// A permute with another user is kept.

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK-LABEL: func.func @permute_with_two_users(
// CHECK-SAME: %arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
// CHECK-NEXT: %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
// CHECK-NEXT: %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
// CHECK-NEXT: return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @permute_with_two_users(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// As the C++ pass's rewrite driver does, a dead op is erased and equal constants become one, rewrite or not.

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK-LABEL: func.func @permute_alone(
// CHECK-SAME: %arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
// CHECK-NEXT: %cst = stablehlo.constant dense<1.000000e+00> : tensor<16x8xf32>
// CHECK-NEXT: %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
// CHECK-NEXT: %1 = stablehlo.multiply %arg0, %cst : tensor<16x8xf32>
// CHECK-NEXT: %2 = stablehlo.add %1, %cst : tensor<16x8xf32>
// CHECK-NEXT: return %2 : tensor<16x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @permute_alone(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<16x8xf32>
  %u = stablehlo.add %arg0, %arg0 : tensor<16x8xf32>
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
  %c1 = stablehlo.constant dense<1.0> : tensor<16x8xf32>
  %1 = stablehlo.multiply %arg0, %c1 : tensor<16x8xf32>
  %2 = stablehlo.add %1, %c : tensor<16x8xf32>
  return %2 : tensor<16x8xf32>
}
