// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s
// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules="conservative-propagation=true" 2>&1 \
// RUN:   | filecheck %s --check-prefix=CONSERVATIVE

// CHECK-LABEL: func @unrelated_operands
// CHECK: %0 = stablehlo.concatenate %arg0, %arg1, dim = 1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=10} need_replication={j}>} : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
// CONSERVATIVE-LABEL: func @unrelated_operands
// CONSERVATIVE: %0 = stablehlo.concatenate %arg0, %arg1, dim = 1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k])->([i, l]) {i=4, j=1, k=1, l=1}>} : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
func.func @unrelated_operands(%arg0: tensor<4x8xf32>, %arg1: tensor<4x2xf32>) -> tensor<4x10xf32> {
  %0 = stablehlo.concatenate %arg0, %arg1, dim = 1 : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// CHECK-LABEL: func @same_operand_twice
// CHECK: %0 = stablehlo.concatenate %arg0, %arg0, dim = 0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8} need_replication={i}>} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
// CONSERVATIVE-LABEL: func @same_operand_twice
// CONSERVATIVE: %0 = stablehlo.concatenate %arg0, %arg0, dim = 0 {sdy.sharding_rule = #sdy.op_sharding_rule<([j, i], [k, i])->([l, i]) {i=8, j=1, k=1, l=1}>} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
func.func @same_operand_twice(%arg0: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @slices_of_different_tensors
// CHECK: %0 = stablehlo.slice %arg0 [0:4, 0:2] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j}>} : (tensor<4x8xf32>) -> tensor<4x2xf32>
// CHECK: %1 = stablehlo.slice %arg1 [0:4, 6:8] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j}>} : (tensor<4x8xf32>) -> tensor<4x2xf32>
// CHECK: %2 = stablehlo.concatenate %0, %1, dim = 1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=4} permutation={j}>} : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
// CONSERVATIVE-LABEL: func @slices_of_different_tensors
// CONSERVATIVE: %0 = stablehlo.slice %arg0 [0:4, 0:2] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j} blocked_propagation={j}>} : (tensor<4x8xf32>) -> tensor<4x2xf32>
// CONSERVATIVE: %1 = stablehlo.slice %arg1 [0:4, 6:8] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j} blocked_propagation={j}>} : (tensor<4x8xf32>) -> tensor<4x2xf32>
// CONSERVATIVE: %2 = stablehlo.concatenate %0, %1, dim = 1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k])->([i, l]) {i=4, j=1, k=1, l=1}>} : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
func.func @slices_of_different_tensors(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.slice %arg0 [0:4, 0:2] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %1 = stablehlo.slice %arg1 [0:4, 6:8] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %2 = stablehlo.concatenate %0, %1, dim = 1 : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}

// CHECK-LABEL: func @wrap_around_pattern
// CHECK: %0 = stablehlo.slice %arg0 [0:4, 6:8] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j}>} : (tensor<4x8xf32>) -> tensor<4x2xf32>
// CHECK: %1 = stablehlo.slice %arg0 [0:4, 0:2] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j}>} : (tensor<4x8xf32>) -> tensor<4x2xf32>
// CHECK: %2 = stablehlo.concatenate %0, %arg0, %1, dim = 1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=4, j=12} permutation={j}>} : (tensor<4x2xf32>, tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x12xf32>
// CONSERVATIVE-LABEL: func @wrap_around_pattern
// CONSERVATIVE: %0 = stablehlo.slice %arg0 [0:4, 6:8] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j} blocked_propagation={j}>} : (tensor<4x8xf32>) -> tensor<4x2xf32>
// CONSERVATIVE: %1 = stablehlo.slice %arg0 [0:4, 0:2] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j} blocked_propagation={j}>} : (tensor<4x8xf32>) -> tensor<4x2xf32>
// CONSERVATIVE: %2 = stablehlo.concatenate %0, %arg0, %1, dim = 1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k], [i, l])->([i, m]) {i=4, j=1, k=1, l=1, m=1}>} : (tensor<4x2xf32>, tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x12xf32>
func.func @wrap_around_pattern(%arg0: tensor<4x8xf32>) -> tensor<4x12xf32> {
  %0 = stablehlo.slice %arg0 [0:4, 6:8] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %1 = stablehlo.slice %arg0 [0:4, 0:2] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %2 = stablehlo.concatenate %0, %arg0, %1, dim = 1 : (tensor<4x2xf32>, tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x12xf32>
  return %2 : tensor<4x12xf32>
}

// CHECK-LABEL: func @slice_and_other_tensor
// CHECK: %0 = stablehlo.slice %arg0 [0:4, 6:8] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j}>} : (tensor<4x8xf32>) -> tensor<4x2xf32>
// CHECK: %1 = stablehlo.concatenate %0, %arg1, dim = 1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=10} need_replication={j}>} : (tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x10xf32>
// CONSERVATIVE-LABEL: func @slice_and_other_tensor
// CONSERVATIVE: %0 = stablehlo.slice %arg0 [0:4, 6:8] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j} blocked_propagation={j}>} : (tensor<4x8xf32>) -> tensor<4x2xf32>
// CONSERVATIVE: %1 = stablehlo.concatenate %0, %arg1, dim = 1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k])->([i, l]) {i=4, j=1, k=1, l=1}>} : (tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x10xf32>
func.func @slice_and_other_tensor(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x10xf32> {
  %0 = stablehlo.slice %arg0 [0:4, 6:8] : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %1 = stablehlo.concatenate %0, %arg1, dim = 1 : (tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x10xf32>
  return %1 : tensor<4x10xf32>
}

// CHECK-LABEL: func @single_operand
// CHECK: %0 = stablehlo.concatenate %arg0, dim = 1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} need_replication={j}>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CONSERVATIVE-LABEL: func @single_operand
// CONSERVATIVE: %0 = stablehlo.concatenate %arg0, dim = 1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, k]) {i=4, j=1, k=1}>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @single_operand(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.concatenate %arg0, dim = 1 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
