// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s

// stablehlo.batch_norm_inference: one factor per operand dim, shared with the
// result; the 1-D scale/offset/mean/variance operands carry the feature-dim
// factor. Shardy gives batch_norm_training and batch_norm_grad no rule.

// CHECK-LABEL: func @inference_features_last
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l], [l], [l], [l], [l])->([i, j, k, l]) {i=2, j=8, k=8, l=16}>
func.func @inference_features_last(%arg0: tensor<2x8x8x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16xf32>) -> (tensor<2x8x8x16xf32>) {
  %0 = "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg2, %arg3, %arg4) {epsilon = 1.0e-03 : f32, feature_index = 3 : i64} : (tensor<2x8x8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x8x8x16xf32>
  return %0 : tensor<2x8x8x16xf32>
}

// CHECK-LABEL: func @inference_features_first
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i], [i], [i], [i])->([i, j, k]) {i=16, j=2, k=8}>
func.func @inference_features_first(%arg0: tensor<16x2x8xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16xf32>) -> (tensor<16x2x8xf32>) {
  %0 = "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg2, %arg3, %arg4) {epsilon = 1.0e-03 : f32, feature_index = 0 : i64} : (tensor<16x2x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<16x2x8xf32>
  return %0 : tensor<16x2x8xf32>
}

// CHECK-LABEL: func @inference_features_in_the_middle
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l], [j], [j], [j], [j])->([i, j, k, l]) {i=2, j=16, k=1, l=8}>
func.func @inference_features_in_the_middle(%arg0: tensor<2x16x1x8xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16xf32>) -> (tensor<2x16x1x8xf32>) {
  %0 = "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg2, %arg3, %arg4) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x16x1x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x16x1x8xf32>
  return %0 : tensor<2x16x1x8xf32>
}

// CHECK-LABEL: func @inference_rank_one
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i], [i], [i], [i])->([i]) {i=16}>
func.func @inference_rank_one(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16xf32>) -> (tensor<16xf32>) {
  %0 = "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg2, %arg3, %arg4) {epsilon = 1.0e-03 : f32, feature_index = 0 : i64} : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// CHECK-LABEL: func @training_gets_no_rule
// CHECK-NOT: sdy.sharding_rule
// CHECK: return
func.func @training_gets_no_rule(%arg0: tensor<2x8x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>) -> (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %0:3 = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg2) {epsilon = 1.0e-03 : f32, feature_index = 2 : i64} : (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>
}

// CHECK-LABEL: func @grad_gets_no_rule
// CHECK-NOT: sdy.sharding_rule
// CHECK: return
func.func @grad_gets_no_rule(%arg0: tensor<2x8x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<2x8x16xf32>) -> (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %0:3 = "stablehlo.batch_norm_grad"(%arg0, %arg1, %arg2, %arg3, %arg4) {epsilon = 1.0e-03 : f32, feature_index = 2 : i64} : (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2x8x16xf32>) -> (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>
}
