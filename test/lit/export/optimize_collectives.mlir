// RUN: pysdy-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(sdy-optimize-collectives))" | filecheck %s
// REQUIRES: optimize_collectives

// From jax 0.11, sdy-optimize-collectives exists (and runs after sdy-reshard-to-collectives when explicit
// collectives are inserted); it keeps a collective permute without a one-axis all-to-all after it. The rewrite of
// a permute followed by such an all-to-all is refused (pysdy does not implement it).

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

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK-LABEL: func.func @permute_alone(
// CHECK-SAME: %arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
// CHECK-NEXT: return %0 : tensor<16x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @permute_alone(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
