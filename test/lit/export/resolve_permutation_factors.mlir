// RUN: pysdy-opt %s -sdy-resolve-permutation-factors -split-input-file | filecheck %s
// RUN: pysdy-opt %s -sdy-resolve-permutation-factors=enable-halo-exchange=false -split-input-file | filecheck %s

// What every jax line does: a window's sharded moving dimension is replicated around the op, and a slice each
// device computes from its own shard, a reverse of an unsharded dimension and an op without permutation factors
// are left as they are.

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func @reduce_window_replicates_window_dim
func.func @reduce_window_replicates_window_dim(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<7x8xf32> {
  // CHECK-NEXT: %[[CST:.*]] = stablehlo.constant
  // CHECK-NEXT: %[[IN:.*]] = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  // CHECK-NEXT: %[[RW:.*]] = "stablehlo.reduce_window"(%[[IN]], %[[CST]])
  // CHECK:      }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<7x8xf32>
  // CHECK-NEXT: %[[OUT:.*]] = sdy.reshard %[[RW]] <@mesh, [{"x"}, {"y"}]> : tensor<7x8xf32>
  // CHECK-NEXT: return %[[OUT]] : tensor<7x8xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%arg0, %c) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 1>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<7x8xf32>
  return %0 : tensor<7x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func @slice_within_each_shard
func.func @slice_within_each_shard(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<7x8xf32> {
  // CHECK-NEXT: %[[S:.*]] = stablehlo.slice %arg0 [0:7, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<7x8xf32>
  // CHECK-NEXT: return %[[S]] : tensor<7x8xf32>
  %0 = stablehlo.slice %arg0 [0:7, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<7x8xf32>
  return %0 : tensor<7x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func @reverse_of_unsharded_dim
func.func @reverse_of_unsharded_dim(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[R:.*]] = stablehlo.reverse %arg0, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: return %[[R]] : tensor<8x8xf32>
  %0 = stablehlo.reverse %arg0, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func @no_permutation_factors
func.func @no_permutation_factors(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  // CHECK-NEXT: return %[[T]] : tensor<8x8xf32>
  %0 = stablehlo.transpose %arg0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
