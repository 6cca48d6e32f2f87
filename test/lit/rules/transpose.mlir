// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s

// CHECK-LABEL: func @swap
// CHECK: %0 = stablehlo.transpose %arg0, dims = [1, 0] {sdy.sharding_rule = #sdy.op_sharding_rule<([j, i])->([i, j]) {i=8, j=4}>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
func.func @swap(%arg0: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func @rotate
// CHECK: %0 = stablehlo.transpose %arg0, dims = [2, 0, 1] {sdy.sharding_rule = #sdy.op_sharding_rule<([j, k, i])->([i, j, k]) {i=8, j=2, k=4}>} : (tensor<2x4x8xf32>) -> tensor<8x2x4xf32>
func.func @rotate(%arg0: tensor<2x4x8xf32>) -> tensor<8x2x4xf32> {
  %0 = stablehlo.transpose %arg0, dims = [2, 0, 1] : (tensor<2x4x8xf32>) -> tensor<8x2x4xf32>
  return %0 : tensor<8x2x4xf32>
}

// CHECK-LABEL: func @identity
// CHECK: %0 = stablehlo.transpose %arg0, dims = [0, 1, 2] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=2, j=4, k=8}>} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
func.func @identity(%arg0: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = stablehlo.transpose %arg0, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// CHECK-LABEL: func @with_size_one_dim
// CHECK: %0 = stablehlo.transpose %arg0, dims = [2, 1, 0] {sdy.sharding_rule = #sdy.op_sharding_rule<([k, j, i])->([i, j, k]) {i=8, j=4, k=1}>} : (tensor<1x4x8xf32>) -> tensor<8x4x1xf32>
func.func @with_size_one_dim(%arg0: tensor<1x4x8xf32>) -> tensor<8x4x1xf32> {
  %0 = stablehlo.transpose %arg0, dims = [2, 1, 0] : (tensor<1x4x8xf32>) -> tensor<8x4x1xf32>
  return %0 : tensor<8x4x1xf32>
}
