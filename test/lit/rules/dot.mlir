// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s

// stablehlo.dot_general and stablehlo.dot: batching dims are shared by both operands
// and the result, free dims by one operand and the result, and contracting dims
// by both operands only (reduction factors).

// CHECK-LABEL: func @matmul
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=32, k=16} reduction={k}>
func.func @matmul(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// CHECK-LABEL: func @batch_matmul
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l], [i, l, k])->([i, j, k]) {i=4, j=8, k=32, l=16} reduction={l}>
func.func @batch_matmul(%arg0: tensor<4x8x16xf32>, %arg1: tensor<4x16x32xf32>) -> tensor<4x8x32xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x16xf32>, tensor<4x16x32xf32>) -> tensor<4x8x32xf32>
  return %0 : tensor<4x8x32xf32>
}

// CHECK-LABEL: func @batching_dims_not_leading
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([j, i, l], [l, k, i])->([i, j, k]) {i=4, j=8, k=32, l=16} reduction={l}>
func.func @batching_dims_not_leading(%arg0: tensor<8x4x16xf32>, %arg1: tensor<16x32x4xf32>) -> tensor<4x8x32xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [1] x [2], contracting_dims = [2] x [0] : (tensor<8x4x16xf32>, tensor<16x32x4xf32>) -> tensor<4x8x32xf32>
  return %0 : tensor<4x8x32xf32>
}

// CHECK-LABEL: func @two_contracting_dims
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([l, i, k], [k, j, l])->([i, j]) {i=3, j=7, k=5, l=2} reduction={k, l}>
func.func @two_contracting_dims(%arg0: tensor<2x3x5xf32>, %arg1: tensor<5x7x2xf32>) -> tensor<3x7xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2, 0] x [0, 2] : (tensor<2x3x5xf32>, tensor<5x7x2xf32>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}

// CHECK-LABEL: func @outer_product
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i], [j])->([i, j]) {i=3, j=5}>
func.func @outer_product(%arg0: tensor<3xf32>, %arg1: tensor<5xf32>) -> tensor<3x5xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [] x [] : (tensor<3xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// CHECK-LABEL: func @only_batching_and_contracting
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [j, i])->([i]) {i=6, j=4} reduction={j}>
func.func @only_batching_and_contracting(%arg0: tensor<6x4xf32>, %arg1: tensor<4x6xf32>) -> tensor<6xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [1], contracting_dims = [1] x [0] : (tensor<6x4xf32>, tensor<4x6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// CHECK-LABEL: func @size_one_dims
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l], [i, l, k])->([i, j, k]) {i=1, j=8, k=4, l=1} reduction={l}>
func.func @size_one_dims(%arg0: tensor<1x8x1xf32>, %arg1: tensor<1x1x4xf32>) -> tensor<1x8x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<1x8x1xf32>, tensor<1x1x4xf32>) -> tensor<1x8x4xf32>
  return %0 : tensor<1x8x4xf32>
}

// CHECK-LABEL: func @dot_matrix_matrix
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=32, k=16} reduction={k}>
func.func @dot_matrix_matrix(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %0 = stablehlo.dot %arg0, %arg1 : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// CHECK-LABEL: func @dot_vector_matrix
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([j], [j, i])->([i]) {i=32, j=16} reduction={j}>
func.func @dot_vector_matrix(%arg0: tensor<16xf32>, %arg1: tensor<16x32xf32>) -> tensor<32xf32> {
  %0 = stablehlo.dot %arg0, %arg1 : (tensor<16xf32>, tensor<16x32xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// CHECK-LABEL: func @dot_matrix_vector
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [j])->([i]) {i=8, j=16} reduction={j}>
func.func @dot_matrix_vector(%arg0: tensor<8x16xf32>, %arg1: tensor<16xf32>) -> tensor<8xf32> {
  %0 = stablehlo.dot %arg0, %arg1 : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func @dot_vector_vector
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([]) {i=16} reduction={i}>
func.func @dot_vector_vector(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>) -> tensor<f32> {
  %0 = stablehlo.dot %arg0, %arg1 : (tensor<16xf32>, tensor<16xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
