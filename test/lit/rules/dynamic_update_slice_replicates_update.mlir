// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s
// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules="conservative-propagation=true" 2>&1 \
// RUN:   | filecheck %s --check-prefix=CONSERVATIVE
// REQUIRES: !dynamic_update_slice_permutes_sliced_dims

// CHECK-LABEL: func @dynamic_update_slice
// CHECK: %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg2, %arg2 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l], [i, k, m], [], [], [])->([i, j, l]) {i=4, j=8, k=3, l=2, m=1} need_replication={k, m}>} : (tensor<4x8x2xf32>, tensor<4x3x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x2xf32>
// CONSERVATIVE-LABEL: func @dynamic_update_slice
// CONSERVATIVE: %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg2, %arg2 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l], [i, k, m], [], [], [])->([i, j, l]) {i=4, j=8, k=3, l=2, m=1} need_replication={k, m}>} : (tensor<4x8x2xf32>, tensor<4x3x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x2xf32>
func.func @dynamic_update_slice(%arg0: tensor<4x8x2xf32>, %arg1: tensor<4x3x1xf32>, %arg2: tensor<i32>) -> tensor<4x8x2xf32> {
  %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg2, %arg2 : (tensor<4x8x2xf32>, tensor<4x3x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x2xf32>
  return %0 : tensor<4x8x2xf32>
}

// CHECK-LABEL: func @dynamic_update_slice_constant_indices
// CHECK: %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %c, %c_0, %c {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l], [i, k, m], [], [], [])->([i, j, l]) {i=4, j=8, k=3, l=2, m=1}>} : (tensor<4x8x2xf32>, tensor<4x3x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x2xf32>
// CONSERVATIVE-LABEL: func @dynamic_update_slice_constant_indices
// CONSERVATIVE: %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %c, %c_0, %c {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, l], [i, k, m], [], [], [])->([i, j, l]) {i=4, j=8, k=3, l=2, m=1}>} : (tensor<4x8x2xf32>, tensor<4x3x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x2xf32>
func.func @dynamic_update_slice_constant_indices(%arg0: tensor<4x8x2xf32>, %arg1: tensor<4x3x1xf32>) -> tensor<4x8x2xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %c_0 = stablehlo.constant dense<5> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %c, %c_0, %c : (tensor<4x8x2xf32>, tensor<4x3x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x2xf32>
  return %0 : tensor<4x8x2xf32>
}

// CHECK-LABEL: func @dynamic_update_slice_sdy_constant_indices
// CHECK: %1 = stablehlo.dynamic_update_slice %arg0, %arg1, %0, %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k], [], [])->([i, j]) {i=4, j=8, k=3}>} : (tensor<4x8xf32>, tensor<4x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x8xf32>
// CONSERVATIVE-LABEL: func @dynamic_update_slice_sdy_constant_indices
// CONSERVATIVE: %1 = stablehlo.dynamic_update_slice %arg0, %arg1, %0, %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k], [], [])->([i, j]) {i=4, j=8, k=3}>} : (tensor<4x8xf32>, tensor<4x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x8xf32>
func.func @dynamic_update_slice_sdy_constant_indices(%arg0: tensor<4x8xf32>, %arg1: tensor<4x3xf32>) -> tensor<4x8xf32> {
  %0 = sdy.constant dense<2> : tensor<i64>
  %1 = stablehlo.dynamic_update_slice %arg0, %arg1, %0, %0 : (tensor<4x8xf32>, tensor<4x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// One start index that is not a constant keeps every sliced dimension of the update replicated.
// CHECK-LABEL: func @dynamic_update_slice_mixed_indices
// CHECK: %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %c {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [j, l], [], [])->([i, k]) {i=4, j=2, k=8, l=3} need_replication={j, l}>} : (tensor<4x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
// CONSERVATIVE-LABEL: func @dynamic_update_slice_mixed_indices
// CONSERVATIVE: %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %c {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [j, l], [], [])->([i, k]) {i=4, j=2, k=8, l=3} need_replication={j, l}>} : (tensor<4x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
func.func @dynamic_update_slice_mixed_indices(%arg0: tensor<4x8xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<i32>) -> tensor<4x8xf32> {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %c : (tensor<4x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// An index computed from a constant is not a constant.
// CHECK-LABEL: func @dynamic_update_slice_converted_constant_index
// CHECK: %1 = stablehlo.dynamic_update_slice %arg0, %arg1, %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [j], [])->([i]) {i=8, j=3} need_replication={j}>} : (tensor<8xf32>, tensor<3xf32>, tensor<i32>) -> tensor<8xf32>
// CONSERVATIVE-LABEL: func @dynamic_update_slice_converted_constant_index
// CONSERVATIVE: %1 = stablehlo.dynamic_update_slice %arg0, %arg1, %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [j], [])->([i]) {i=8, j=3} need_replication={j}>} : (tensor<8xf32>, tensor<3xf32>, tensor<i32>) -> tensor<8xf32>
func.func @dynamic_update_slice_converted_constant_index(%arg0: tensor<8xf32>, %arg1: tensor<3xf32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<1> : tensor<i64>
  %0 = stablehlo.convert %c : (tensor<i64>) -> tensor<i32>
  %1 = stablehlo.dynamic_update_slice %arg0, %arg1, %0 : (tensor<8xf32>, tensor<3xf32>, tensor<i32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// A constant defined outside the loop body still counts.
// CHECK-LABEL: func @dynamic_update_slice_constant_from_outside_region
// CHECK: %1 = stablehlo.dynamic_update_slice %iterArg, %arg1, %c {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [j], [])->([i]) {i=8, j=3}>} : (tensor<8xf32>, tensor<3xf32>, tensor<i32>) -> tensor<8xf32>
// CONSERVATIVE-LABEL: func @dynamic_update_slice_constant_from_outside_region
// CONSERVATIVE: %1 = stablehlo.dynamic_update_slice %iterArg, %arg1, %c {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [j], [])->([i]) {i=8, j=3}>} : (tensor<8xf32>, tensor<3xf32>, tensor<i32>) -> tensor<8xf32>
func.func @dynamic_update_slice_constant_from_outside_region(%arg0: tensor<8xf32>, %arg1: tensor<3xf32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<4> : tensor<i32>
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
  cond {
    %t = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %1 = stablehlo.dynamic_update_slice %iterArg, %arg1, %c : (tensor<8xf32>, tensor<3xf32>, tensor<i32>) -> tensor<8xf32>
    stablehlo.return %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}
