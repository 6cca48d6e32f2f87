// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s
// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules="conservative-propagation=true" 2>&1 \
// RUN:   | filecheck %s --check-prefix=CONSERVATIVE

// stablehlo.convolution: batch (and batch-group) factors, per spatial dim a
// number-of-windows factor (permutation, shared with the output) and a
// window-size factor (reduction, shared with the kernel) with the larger one
// major (conservative mode leaves spatial dims out), then feature-group,
// input-feature (reduction) and output-feature factors.

// CHECK-LABEL: func @strided_and_padded
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, jk, lm, n], [k, m, n, o])->([i, j, l, o]) {i=2, j=112, k=2, l=112, m=2, n=3, o=64} reduction={k, m, n} permutation={j, l}>
// CONSERVATIVE-LABEL: func @strided_and_padded
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, m, j], [n, o, j, k])->([i, p, q, k]) {i=2, j=3, k=64, l=1, m=1, n=1, o=1, p=1, q=1} reduction={j}>
func.func @strided_and_padded(%arg0: tensor<2x224x224x3xf32>, %arg1: tensor<7x7x3x64xf32>) -> tensor<2x112x112x64xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64, window_strides = array<i64: 2, 2>, padding = dense<3> : tensor<2x2xi64>} : (tensor<2x224x224x3xf32>, tensor<7x7x3x64xf32>) -> tensor<2x112x112x64xf32>
  return %0 : tensor<2x112x112x64xf32>
}

// CHECK-LABEL: func @batch_groups_of_one
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, i])->([j, i]) {i=4, j=1, k=3} reduction={k}>
// CONSERVATIVE-LABEL: func @batch_groups_of_one
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, i])->([j, i]) {i=4, j=1, k=3} reduction={k}>
func.func @batch_groups_of_one(%arg0: tensor<4x3xf32>, %arg1: tensor<3x4xf32>) -> tensor<1x4xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<[b, f]x[i, o]->[b, f]>, batch_group_count = 4 : i64, feature_group_count = 1 : i64} : (tensor<4x3xf32>, tensor<3x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// CHECK-LABEL: func @single_output_feature
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [j, k])->([i, l]) {i=2, j=3, k=1, l=1} reduction={j}>
// CONSERVATIVE-LABEL: func @single_output_feature
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [j, k])->([i, l]) {i=2, j=3, k=1, l=1} reduction={j}>
func.func @single_output_feature(%arg0: tensor<2x3xf32>, %arg1: tensor<3x1xf32>) -> tensor<2x1xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<[b, f]x[i, o]->[b, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3xf32>, tensor<3x1xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// CHECK-LABEL: func @no_spatial_dims
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([j, i], [k, j])->([i, k]) {i=5, j=3, k=7} reduction={j}>
// CONSERVATIVE-LABEL: func @no_spatial_dims
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([j, i], [k, j])->([i, k]) {i=5, j=3, k=7} reduction={j}>
func.func @no_spatial_dims(%arg0: tensor<3x5xf32>, %arg1: tensor<7x3xf32>) -> tensor<5x7xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<[f, b]x[o, i]->[b, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x5xf32>, tensor<7x3xf32>) -> tensor<5x7xf32>
  return %0 : tensor<5x7xf32>
}
