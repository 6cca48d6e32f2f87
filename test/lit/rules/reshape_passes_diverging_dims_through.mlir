// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s
// REQUIRES: !reshape_permutes_diverging_dims, !reshape_size_one_dims_need_replication

// CHECK-LABEL: func @swap_coprime_dims
// CHECK: %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k])->([j, l]) {i=2, j=3, k=3, l=2}>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
func.func @swap_coprime_dims(%arg0: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func @diverge_then_converge
// CHECK: %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, mn])->([ik, ln]) {i=4, j=3, k=2, l=3, m=2, n=5}>} : (tensor<12x10xf32>) -> tensor<8x15xf32>
func.func @diverge_then_converge(%arg0: tensor<12x10xf32>) -> tensor<8x15xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<12x10xf32>) -> tensor<8x15xf32>
  return %0 : tensor<8x15xf32>
}

// CHECK-LABEL: func @three_dims_interleaved
// CHECK: %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, mp])->([j, ln, op]) {i=4, j=5, k=6, l=6, m=5, n=2, o=2, p=2}>} : (tensor<4x6x10xf32>) -> tensor<5x12x4xf32>
func.func @three_dims_interleaved(%arg0: tensor<4x6x10xf32>) -> tensor<5x12x4xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<4x6x10xf32>) -> tensor<5x12x4xf32>
  return %0 : tensor<5x12x4xf32>
}

// CHECK-LABEL: func @size_one_dims
// CHECK: %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, jl, m])->([j, k, l]) {i=1, j=2, k=1, l=3, m=1}>} : (tensor<1x6x1xf32>) -> tensor<2x1x3xf32>
func.func @size_one_dims(%arg0: tensor<1x6x1xf32>) -> tensor<2x1x3xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<1x6x1xf32>) -> tensor<2x1x3xf32>
  return %0 : tensor<2x1x3xf32>
}

// CHECK-LABEL: func @scalar_to_ones
// CHECK: %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([])->([i, j]) {i=1, j=1}>} : (tensor<f32>) -> tensor<1x1xf32>
func.func @scalar_to_ones(%arg0: tensor<f32>) -> tensor<1x1xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<f32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// CHECK-LABEL: func @ones_to_scalar
// CHECK: %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([]) {i=1, j=1}>} : (tensor<1x1xf32>) -> tensor<f32>
func.func @ones_to_scalar(%arg0: tensor<1x1xf32>) -> tensor<f32> {
  %0 = stablehlo.reshape %arg0 : (tensor<1x1xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func @square_regroup
// CHECK: %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, mn])->([ik, ln]) {i=3, j=3, k=2, l=3, m=2, n=2}>} : (tensor<9x4xf32>) -> tensor<6x6xf32>
func.func @square_regroup(%arg0: tensor<9x4xf32>) -> tensor<6x6xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<9x4xf32>) -> tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}

// CHECK-LABEL: func @coprime_sizes
// CHECK: %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, ln])->([ik, mn]) {i=2, j=5, k=7, l=7, m=5, n=3}>} : (tensor<10x21xf32>) -> tensor<14x15xf32>
func.func @coprime_sizes(%arg0: tensor<10x21xf32>) -> tensor<14x15xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<10x21xf32>) -> tensor<14x15xf32>
  return %0 : tensor<14x15xf32>
}
