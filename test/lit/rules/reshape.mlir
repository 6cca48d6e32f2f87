// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s

// CHECK-LABEL: func @merge_dims
// CHECK: %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=4, j=8}>} : (tensor<4x8xf32>) -> tensor<32xf32>
func.func @merge_dims(%arg0: tensor<4x8xf32>) -> tensor<32xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<4x8xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// CHECK-LABEL: func @split_dim
// CHECK: %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=4, j=8}>} : (tensor<32xf32>) -> tensor<4x8xf32>
func.func @split_dim(%arg0: tensor<32xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<32xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func @regroup_with_shared_gcd
// CHECK: %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k])->([i, jk]) {i=2, j=2, k=8}>} : (tensor<4x8xf32>) -> tensor<2x16xf32>
func.func @regroup_with_shared_gcd(%arg0: tensor<4x8xf32>) -> tensor<2x16xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<4x8xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// CHECK-LABEL: func @split_6_into_2x3
// CHECK: %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=3}>} : (tensor<6xf32>) -> tensor<2x3xf32>
func.func @split_6_into_2x3(%arg0: tensor<6xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<6xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func @split_6_into_3x2
// CHECK: %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=3, j=2}>} : (tensor<6xf32>) -> tensor<3x2xf32>
func.func @split_6_into_3x2(%arg0: tensor<6xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<6xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func @scalar_to_scalar
// CHECK: %0 = stablehlo.reshape %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([])->([])>} : (tensor<f32>) -> tensor<f32>
func.func @scalar_to_scalar(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reshape %arg0 : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func @zero_elements_no_rule
// CHECK-NOT: sdy.sharding_rule
func.func @zero_elements_no_rule(%arg0: tensor<0x4xf32>) -> tensor<4x0xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<0x4xf32>) -> tensor<4x0xf32>
  return %0 : tensor<4x0xf32>
}
