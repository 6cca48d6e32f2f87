// RUN: pysdy-opt %s -sdy-resolve-permutation-factors | filecheck %s
// REQUIRES: !permutation_factors_dus_result_follows_operand, dynamic_update_slice_permutes_sliced_dims

// On jax 0.11 (a dynamic update slice's sliced dimensions are permutation factors, and the pass reshards its result
// like any other tensor), a result sharded along a sliced dimension is computed replicated there and resharded back,
// even where the operand needs no reshard.

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func @dus_result_alone
func.func @dus_result_alone(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg2: tensor<i32>, %arg3: tensor<i32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[DUS:.*]] = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x8xf32>, tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
  // CHECK-NEXT: %[[OUT:.*]] = sdy.reshard %[[DUS]] <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
  // CHECK-NEXT: return %[[OUT]] : tensor<8x8xf32>
  %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x8xf32>, tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
