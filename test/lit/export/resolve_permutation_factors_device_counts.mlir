// RUN: pysdy-opt %s -sdy-resolve-permutation-factors='partition-count=4 replica-count=2' -split-input-file | filecheck %s
// REQUIRES: permutation_factors_device_count_options

// From jax 0.11 the pass has `partition-count` and `replica-count` options (which devices its halo exchanges
// address); the mirrored reverse and the replication of permutation factors do not depend on them.

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK:       sdy.mesh @mesh_reversed = <["x"=2, "y"=2], device_ids=[2, 3, 0, 1]>
// CHECK-NEXT:  sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-LABEL: func @reverse_mirrored
func.func @reverse_mirrored(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[R:.*]] = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_reversed, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: %[[OUT:.*]] = sdy.reshard %[[R]] <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
  // CHECK-NEXT: return %[[OUT]] : tensor<8x8xf32>
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func @window_replicated
func.func @window_replicated(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[CST:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // CHECK-NEXT: %[[IN:.*]] = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  // CHECK-NEXT: %[[W:.*]] = "stablehlo.reduce_window"(%[[IN]], %[[CST]]) <{padding = dense<{{\[\[}}1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}> ({
  // CHECK:      }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<8x8xf32>
  // CHECK-NEXT: %[[OUT:.*]] = sdy.reshard %[[W]] <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
  // CHECK-NEXT: return %[[OUT]] : tensor<8x8xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%arg0, %cst) <{window_dimensions = array<i64: 3, 1>, padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
