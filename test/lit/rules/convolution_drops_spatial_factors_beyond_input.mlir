// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s
// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules="conservative-propagation=true" 2>&1 \
// RUN:   | filecheck %s --check-prefix=CONSERVATIVE
// REQUIRES: !convolution_keeps_spatial_factors_beyond_input

// CHECK-LABEL: func @nhwc_3x3
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l], [n, o, l, m])->([i, j, k, m]) {i=2, j=30, k=30, l=8, m=16, n=1, o=1} reduction={l} permutation={j, k}>
// CONSERVATIVE-LABEL: func @nhwc_3x3
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, m, j], [n, o, j, k])->([i, p, q, k]) {i=2, j=8, k=16, l=1, m=1, n=1, o=1, p=1, q=1} reduction={j}>
func.func @nhwc_3x3(%arg0: tensor<2x32x32x8xf32>, %arg1: tensor<3x3x8x16xf32>) -> tensor<2x30x30x16xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x32x32x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x30x30x16xf32>
  return %0 : tensor<2x30x30x16xf32>
}

// CHECK-LABEL: func @window_larger_than_num_windows
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [j, k, l])->([i, m, l]) {i=4, j=12, k=8, l=6, m=1} reduction={j, k}>
// CONSERVATIVE-LABEL: func @window_larger_than_num_windows
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, j], [m, j, k])->([i, n, k]) {i=4, j=8, k=6, l=1, m=1, n=1} reduction={j}>
func.func @window_larger_than_num_windows(%arg0: tensor<4x16x8xf32>, %arg1: tensor<12x8x6xf32>) -> tensor<4x5x6xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x16x8xf32>, tensor<12x8x6xf32>) -> tensor<4x5x6xf32>
  return %0 : tensor<4x5x6xf32>
}

// CHECK-LABEL: func @input_smaller_than_both_factors
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [j, k, l])->([i, m, n]) {i=1, j=4, k=1, l=1, m=1, n=1} reduction={j, k}>
// CONSERVATIVE-LABEL: func @input_smaller_than_both_factors
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, j], [l, j, m])->([i, n, o]) {i=1, j=1, k=1, l=1, m=1, n=1, o=1} reduction={j}>
func.func @input_smaller_than_both_factors(%arg0: tensor<1x6x1xf32>, %arg1: tensor<4x1x1xf32>) -> tensor<1x3x1xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x1xf32>, tensor<4x1x1xf32>) -> tensor<1x3x1xf32>
  return %0 : tensor<1x3x1xf32>
}

// CHECK-LABEL: func @nchw_layout
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, j, k], [m, l, n, o])->([i, m, j, k]) {i=2, j=30, k=30, l=8, m=16, n=1, o=1} reduction={l} permutation={j, k}>
// CONSERVATIVE-LABEL: func @nchw_layout
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l, m], [k, j, n, o])->([i, k, p, q]) {i=2, j=8, k=16, l=1, m=1, n=1, o=1, p=1, q=1} reduction={j}>
func.func @nchw_layout(%arg0: tensor<2x8x32x32xf32>, %arg1: tensor<16x8x3x3xf32>) -> tensor<2x16x30x30xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x32x32xf32>, tensor<16x8x3x3xf32>) -> tensor<2x16x30x30xf32>
  return %0 : tensor<2x16x30x30xf32>
}

// CHECK-LABEL: func @permuted_layouts
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([j, k, i], [k, m, l])->([j, i, l]) {i=2, j=29, k=8, l=5, m=1} reduction={k} permutation={j}>
// CONSERVATIVE-LABEL: func @permuted_layouts
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([l, j, i], [j, m, k])->([n, i, k]) {i=2, j=8, k=5, l=1, m=1, n=1} reduction={j}>
func.func @permuted_layouts(%arg0: tensor<32x8x2xf32>, %arg1: tensor<8x4x5xf32>) -> tensor<29x2x5xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<[0, f, b]x[i, 0, o]->[0, b, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<32x8x2xf32>, tensor<8x4x5xf32>) -> tensor<29x2x5xf32>
  return %0 : tensor<29x2x5xf32>
}

// CHECK-LABEL: func @dilated
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [m, k, l])->([i, j, l]) {i=1, j=16, k=4, l=4, m=1} reduction={k} permutation={j}>
// CONSERVATIVE-LABEL: func @dilated
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, j], [m, j, k])->([i, n, k]) {i=1, j=4, k=4, l=1, m=1, n=1} reduction={j}>
func.func @dilated(%arg0: tensor<1x16x4xf32>, %arg1: tensor<3x4x4xf32>) -> tensor<1x27x4xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64, lhs_dilation = array<i64: 2>, rhs_dilation = array<i64: 2>} : (tensor<1x16x4xf32>, tensor<3x4x4xf32>) -> tensor<1x27x4xf32>
  return %0 : tensor<1x27x4xf32>
}

// CHECK-LABEL: func @depthwise
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l], [n, o, m, l])->([i, j, k, l]) {i=2, j=6, k=6, l=16, m=1, n=1, o=1} reduction={m} permutation={j, k}>
// CONSERVATIVE-LABEL: func @depthwise
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, m, j], [n, o, k, j])->([i, p, q, j]) {i=2, j=16, k=1, l=1, m=1, n=1, o=1, p=1, q=1} reduction={k}>
func.func @depthwise(%arg0: tensor<2x8x8x16xf32>, %arg1: tensor<3x3x1x16xf32>) -> tensor<2x6x6x16xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, batch_group_count = 1 : i64, feature_group_count = 16 : i64} : (tensor<2x8x8x16xf32>, tensor<3x3x1x16xf32>) -> tensor<2x6x6x16xf32>
  return %0 : tensor<2x6x6x16xf32>
}

// CHECK-LABEL: func @feature_groups
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, kl], [n, l, km])->([i, j, km]) {i=2, j=6, k=2, l=6, m=4, n=1} reduction={l} permutation={j}>
// CONSERVATIVE-LABEL: func @feature_groups
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, m, jk], [n, k, jl])->([i, o, jl]) {i=2, j=2, k=6, l=4, m=1, n=1, o=1} reduction={k}>
func.func @feature_groups(%arg0: tensor<2x8x12xf32>, %arg1: tensor<3x6x8xf32>) -> tensor<2x6x8xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x8x12xf32>, tensor<3x6x8xf32>) -> tensor<2x6x8xf32>
  return %0 : tensor<2x6x8xf32>
}

// CHECK-LABEL: func @batch_groups
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k, l], [n, l, im])->([j, k, im]) {i=2, j=4, k=8, l=3, m=2, n=1} reduction={l} permutation={k}>
// CONSERVATIVE-LABEL: func @batch_groups
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([ij, m, k], [n, k, il])->([j, o, il]) {i=2, j=4, k=3, l=2, m=1, n=1, o=1} reduction={k}>
func.func @batch_groups(%arg0: tensor<8x10x3xf32>, %arg1: tensor<3x3x4xf32>) -> tensor<4x8x4xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<8x10x3xf32>, tensor<3x3x4xf32>) -> tensor<4x8x4xf32>
  return %0 : tensor<4x8x4xf32>
}
