// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s

// CHECK-LABEL: func @add_major_dim
// CHECK: %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] {sdy.sharding_rule = #sdy.op_sharding_rule<([j, k])->([i, j, k]) {i=3, j=4, k=8}>} : (tensor<4x8xf32>) -> tensor<3x4x8xf32>
func.func @add_major_dim(%arg0: tensor<4x8xf32>) -> tensor<3x4x8xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<4x8xf32>) -> tensor<3x4x8xf32>
  return %0 : tensor<3x4x8xf32>
}

// CHECK-LABEL: func @add_minor_and_middle_dims
// CHECK: %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k])->([i, j, k, l]) {i=4, j=5, k=8, l=6}>} : (tensor<4x8xf32>) -> tensor<4x5x8x6xf32>
func.func @add_minor_and_middle_dims(%arg0: tensor<4x8xf32>) -> tensor<4x5x8x6xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x5x8x6xf32>
  return %0 : tensor<4x5x8x6xf32>
}

// CHECK-LABEL: func @stretch_size_one_dim
// CHECK: %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, k]) {i=4, j=1, k=7}>} : (tensor<4x1xf32>) -> tensor<4x7xf32>
func.func @stretch_size_one_dim(%arg0: tensor<4x1xf32>) -> tensor<4x7xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x7xf32>
  return %0 : tensor<4x7xf32>
}

// CHECK-LABEL: func @keep_size_one_dim
// CHECK: %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=1}>} : (tensor<4x1xf32>) -> tensor<4x1xf32>
func.func @keep_size_one_dim(%arg0: tensor<4x1xf32>) -> tensor<4x1xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// CHECK-LABEL: func @scalar
// CHECK: %0 = stablehlo.broadcast_in_dim %arg0, dims = [] {sdy.sharding_rule = #sdy.op_sharding_rule<([])->([i, j]) {i=2, j=3}>} : (tensor<f32>) -> tensor<2x3xf32>
func.func @scalar(%arg0: tensor<f32>) -> tensor<2x3xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func @unsorted_dims
// CHECK: %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 0] {sdy.sharding_rule = #sdy.op_sharding_rule<([k, i])->([i, j, k]) {i=8, j=3, k=4}>} : (tensor<4x8xf32>) -> tensor<8x3x4xf32>
func.func @unsorted_dims(%arg0: tensor<4x8xf32>) -> tensor<8x3x4xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 0] : (tensor<4x8xf32>) -> tensor<8x3x4xf32>
  return %0 : tensor<8x3x4xf32>
}

// CHECK-LABEL: func @stretch_and_move
// CHECK: %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 0] {sdy.sharding_rule = #sdy.op_sharding_rule<([j, i])->([i, k]) {i=8, j=1, k=5}>} : (tensor<1x8xf32>) -> tensor<8x5xf32>
func.func @stretch_and_move(%arg0: tensor<1x8xf32>) -> tensor<8x5xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 0] : (tensor<1x8xf32>) -> tensor<8x5xf32>
  return %0 : tensor<8x5xf32>
}
