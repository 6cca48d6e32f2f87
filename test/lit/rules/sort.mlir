// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s

// stablehlo.sort: one factor per dim shared by all operands and results; the
// sort dim needs replication, and propagation along it is blocked when every
// other dim has size 1. As in Shardy, a negative (or the default -1) dimension
// attribute names no dim, so nothing needs replication.

// CHECK-LABEL: func @sort_middle_dim
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=4, j=8, k=16} need_replication={j}>
func.func @sort_middle_dim(%arg0: tensor<4x8x16xf32>) -> (tensor<4x8x16xf32>) {
  %0 = "stablehlo.sort"(%arg0) ({
  ^bb0(%x0: tensor<f32>, %x1: tensor<f32>):
    %1 = stablehlo.compare GT, %x0, %x1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<4x8x16xf32>) -> (tensor<4x8x16xf32>)
  return %0 : tensor<4x8x16xf32>
}

// CHECK-LABEL: func @sort_with_payloads
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j], [i, j], [i, j]) {i=4, j=8} need_replication={i}>
func.func @sort_with_payloads(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xi32>, %arg2: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>) {
  %0:3 = "stablehlo.sort"(%arg0, %arg1, %arg2) ({
  ^bb0(%x0: tensor<f32>, %x1: tensor<f32>, %x2: tensor<i32>, %x3: tensor<i32>, %x4: tensor<f32>, %x5: tensor<f32>):
    %1 = stablehlo.compare GT, %x0, %x1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>)
  return %0#0, %0#1, %0#2 : tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>
}

// CHECK-LABEL: func @sort_only_dim_of_size_above_one
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=1, j=8, k=1} need_replication={j} blocked_propagation={j}>
func.func @sort_only_dim_of_size_above_one(%arg0: tensor<1x8x1xf32>) -> (tensor<1x8x1xf32>) {
  %0 = "stablehlo.sort"(%arg0) ({
  ^bb0(%x0: tensor<f32>, %x1: tensor<f32>):
    %1 = stablehlo.compare GT, %x0, %x1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<1x8x1xf32>) -> (tensor<1x8x1xf32>)
  return %0 : tensor<1x8x1xf32>
}

// CHECK-LABEL: func @sort_rank_one
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i], [i]) {i=16} need_replication={i} blocked_propagation={i}>
func.func @sort_rank_one(%arg0: tensor<16xf32>, %arg1: tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>) {
  %0:2 = "stablehlo.sort"(%arg0, %arg1) ({
  ^bb0(%x0: tensor<f32>, %x1: tensor<f32>, %x2: tensor<i32>, %x3: tensor<i32>):
    %1 = stablehlo.compare GT, %x0, %x1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<16xf32>, tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>)
  return %0#0, %0#1 : tensor<16xf32>, tensor<16xi32>
}

// CHECK-LABEL: func @sort_other_dim_of_size_above_one
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=1, j=8, k=2} need_replication={j}>
func.func @sort_other_dim_of_size_above_one(%arg0: tensor<1x8x2xf32>) -> (tensor<1x8x2xf32>) {
  %0 = "stablehlo.sort"(%arg0) ({
  ^bb0(%x0: tensor<f32>, %x1: tensor<f32>):
    %1 = stablehlo.compare GT, %x0, %x1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<1x8x2xf32>) -> (tensor<1x8x2xf32>)
  return %0 : tensor<1x8x2xf32>
}

// CHECK-LABEL: func @sort_negative_dimension
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
func.func @sort_negative_dimension(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>) {
  %0 = "stablehlo.sort"(%arg0) ({
  ^bb0(%x0: tensor<f32>, %x1: tensor<f32>):
    %1 = stablehlo.compare GT, %x0, %x1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {dimension = -1 : i64} : (tensor<4x8xf32>) -> (tensor<4x8xf32>)
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func @sort_default_dimension
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
func.func @sort_default_dimension(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>) {
  %0 = "stablehlo.sort"(%arg0) ({
  ^bb0(%x0: tensor<f32>, %x1: tensor<f32>):
    %1 = stablehlo.compare GT, %x0, %x1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<4x8xf32>) -> (tensor<4x8xf32>)
  return %0 : tensor<4x8xf32>
}
