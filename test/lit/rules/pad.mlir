// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s
// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules="conservative-propagation=true" 2>&1 \
// RUN:   | filecheck %s --check-prefix=CONSERVATIVE

// CHECK-LABEL: func @pad_one_dim
// CHECK: %0 = stablehlo.pad %arg0, %arg1, low = [0, 1], high = [0, 2], interior = [0, 0] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=8} permutation={j}>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x11xf32>
// CONSERVATIVE-LABEL: func @pad_one_dim
// CONSERVATIVE: %0 = stablehlo.pad %arg0, %arg1, low = [0, 1], high = [0, 2], interior = [0, 0] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=8} permutation={j} blocked_propagation={j}>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x11xf32>
func.func @pad_one_dim(%arg0: tensor<4x8xf32>, %arg1: tensor<f32>) -> tensor<4x11xf32> {
  %0 = stablehlo.pad %arg0, %arg1, low = [0, 1], high = [0, 2], interior = [0, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x11xf32>
  return %0 : tensor<4x11xf32>
}

// CHECK-LABEL: func @pad_interior
// CHECK: %0 = stablehlo.pad %arg0, %arg1, low = [0, 0], high = [0, 0], interior = [1, 0] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=8} permutation={i}>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<7x8xf32>
// CONSERVATIVE-LABEL: func @pad_interior
// CONSERVATIVE: %0 = stablehlo.pad %arg0, %arg1, low = [0, 0], high = [0, 0], interior = [1, 0] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=8} permutation={i} blocked_propagation={i}>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<7x8xf32>
func.func @pad_interior(%arg0: tensor<4x8xf32>, %arg1: tensor<f32>) -> tensor<7x8xf32> {
  %0 = stablehlo.pad %arg0, %arg1, low = [0, 0], high = [0, 0], interior = [1, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<7x8xf32>
  return %0 : tensor<7x8xf32>
}
