// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s
// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules="conservative-propagation=true" 2>&1 \
// RUN:   | filecheck %s --check-prefix=CONSERVATIVE
// REQUIRES: pad_permutes_every_padded_dim

// CHECK-LABEL: func @pad_that_cancels_out
// CHECK: %0 = stablehlo.pad %arg0, %arg1, low = [1, 0], high = [-1, 0], interior = [0, 0] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=8} permutation={i}>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// CONSERVATIVE-LABEL: func @pad_that_cancels_out
// CONSERVATIVE: %0 = stablehlo.pad %arg0, %arg1, low = [1, 0], high = [-1, 0], interior = [0, 0] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=8} permutation={i}>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
func.func @pad_that_cancels_out(%arg0: tensor<4x8xf32>, %arg1: tensor<f32>) -> tensor<4x8xf32> {
  %0 = stablehlo.pad %arg0, %arg1, low = [1, 0], high = [-1, 0], interior = [0, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
