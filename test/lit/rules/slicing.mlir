// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s
// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules="conservative-propagation=true" 2>&1 \
// RUN:   | filecheck %s --check-prefix=CONSERVATIVE

// CHECK-LABEL: func @slice_one_dim
// CHECK: %0 = stablehlo.slice %arg0 [0:4, 2:6] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j}>} : (tensor<4x8xf32>) -> tensor<4x4xf32>
// CONSERVATIVE-LABEL: func @slice_one_dim
// CONSERVATIVE: %0 = stablehlo.slice %arg0 [0:4, 2:6] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j} blocked_propagation={j}>} : (tensor<4x8xf32>) -> tensor<4x4xf32>
func.func @slice_one_dim(%arg0: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.slice %arg0 [0:4, 2:6] : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// CHECK-LABEL: func @slice_strided
// CHECK: %0 = stablehlo.slice %arg0 [1:4, 0:8:2, 0:3] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=4, j=8, k=3} permutation={i, j}>} : (tensor<4x8x3xf32>) -> tensor<3x4x3xf32>
// CONSERVATIVE-LABEL: func @slice_strided
// CONSERVATIVE: %0 = stablehlo.slice %arg0 [1:4, 0:8:2, 0:3] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=4, j=8, k=3} permutation={i, j} blocked_propagation={i, j}>} : (tensor<4x8x3xf32>) -> tensor<3x4x3xf32>
func.func @slice_strided(%arg0: tensor<4x8x3xf32>) -> tensor<3x4x3xf32> {
  %0 = stablehlo.slice %arg0 [1:4, 0:8:2, 0:3] : (tensor<4x8x3xf32>) -> tensor<3x4x3xf32>
  return %0 : tensor<3x4x3xf32>
}

// CHECK-LABEL: func @slice_full
// CHECK: %0 = stablehlo.slice %arg0 [0:4, 0:8] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CONSERVATIVE-LABEL: func @slice_full
// CONSERVATIVE: %0 = stablehlo.slice %arg0 [0:4, 0:8] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @slice_full(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.slice %arg0 [0:4, 0:8] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func @dynamic_slice
// CHECK: %0 = stablehlo.dynamic_slice %arg0, %arg1, %arg1, %arg1, sizes = [4, 3, 1] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [], [], [])->([i, j, k]) {i=4, j=8, k=2} need_replication={j, k} blocked_propagation={j, k}>} : (tensor<4x8x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x3x1xf32>
// CONSERVATIVE-LABEL: func @dynamic_slice
// CONSERVATIVE: %0 = stablehlo.dynamic_slice %arg0, %arg1, %arg1, %arg1, sizes = [4, 3, 1] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [], [], [])->([i, j, k]) {i=4, j=8, k=2} need_replication={j, k} blocked_propagation={j, k}>} : (tensor<4x8x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x3x1xf32>
func.func @dynamic_slice(%arg0: tensor<4x8x2xf32>, %arg1: tensor<i32>) -> tensor<4x3x1xf32> {
  %0 = stablehlo.dynamic_slice %arg0, %arg1, %arg1, %arg1, sizes = [4, 3, 1] : (tensor<4x8x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x3x1xf32>
  return %0 : tensor<4x3x1xf32>
}

// CHECK-LABEL: func @dynamic_update_slice_whole
// CHECK: %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg2 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [], [])->([i, j]) {i=4, j=8}>} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
// CONSERVATIVE-LABEL: func @dynamic_update_slice_whole
// CONSERVATIVE: %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg2 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [], [])->([i, j]) {i=4, j=8}>} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
func.func @dynamic_update_slice_whole(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<i32>) -> tensor<4x8xf32> {
  %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg2 : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
