// RUN: pysdy-opt %s -sdy-resolve-permutation-factors | filecheck %s
// REQUIRES: !permutation_factors_halo_pad_slice_reshape

// Before jax 0.11, a pad's sharded padded dimension is replicated around it, even where each device could pad its
// own shard.

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func @pad_replicated
func.func @pad_replicated(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<10x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  // CHECK-NEXT: %[[CST:.*]] = stablehlo.constant
  // CHECK-NEXT: %[[IN:.*]] = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x8xf32>
  // CHECK-NEXT: %[[PAD:.*]] = stablehlo.pad %[[IN]], %[[CST]], low = [1, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<10x8xf32>
  // CHECK-NEXT: %[[OUT:.*]] = sdy.reshard %[[PAD]] <@mesh, [{"x"}, {}]> : tensor<10x8xf32>
  // CHECK-NEXT: return %[[OUT]] : tensor<10x8xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %arg0, %c, low = [1, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<10x8xf32>
  return %0 : tensor<10x8xf32>
}
