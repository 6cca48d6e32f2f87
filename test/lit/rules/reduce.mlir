// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s
// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules="conservative-propagation=true" 2>&1 \
// RUN:   | filecheck %s --check-prefix=CONSERVATIVE

// stablehlo.reduce: kept dims are shared by inputs and results, reduced dims are
// reduction factors of the inputs. stablehlo.reduce_window: one factor per dim
// of the result's size, a permutation where the window moves (size or stride
// not 1, or padding), blocked in conservative mode. stablehlo.select_and_scatter:
// windowed dims split into a source factor (needs replication) and an
// operand/result factor (permutation), both blocked in conservative mode.

// CHECK-LABEL: func @reduce_one_dim
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [])->([i, k]) {i=4, j=8, k=16} reduction={j}>
// CONSERVATIVE-LABEL: func @reduce_one_dim
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [])->([i, k]) {i=4, j=8, k=16} reduction={j}>
func.func @reduce_one_dim(%arg0: tensor<4x8x16xf32>, %arg1: tensor<f32>) -> (tensor<4x16xf32>) {
  %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [1] : (tensor<4x8x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func @reduce_all_dims
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([]) {i=4, j=8} reduction={i, j}>
// CONSERVATIVE-LABEL: func @reduce_all_dims
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([]) {i=4, j=8} reduction={i, j}>
func.func @reduce_all_dims(%arg0: tensor<4x8xf32>, %arg1: tensor<f32>) -> (tensor<f32>) {
  %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func @reduce_no_dims
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=8}>
// CONSERVATIVE-LABEL: func @reduce_no_dims
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=8}>
func.func @reduce_no_dims(%arg0: tensor<4x8xf32>, %arg1: tensor<f32>) -> (tensor<4x8xf32>) {
  %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func @reduce_variadic
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [], [])->([j], [j]) {i=4, j=8} reduction={i}>
// CONSERVATIVE-LABEL: func @reduce_variadic
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [], [])->([j], [j]) {i=4, j=8} reduction={i}>
func.func @reduce_variadic(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xi32>, %arg2: tensor<f32>, %arg3: tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %0:2 = stablehlo.reduce(%arg0 init: %arg2), (%arg1 init: %arg3) across dimensions = [0] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
    reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<i32>, %d: tensor<i32>) {
      %1 = stablehlo.maximum %a, %b : tensor<f32>
      %2 = stablehlo.minimum %c, %d : tensor<i32>
      stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
    }
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xi32>
}

// CHECK-LABEL: func @reduce_window_strided
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=7} permutation={j}>
// CONSERVATIVE-LABEL: func @reduce_window_strided
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=7} permutation={j} blocked_propagation={j}>
func.func @reduce_window_strided(%arg0: tensor<4x16xf32>, %arg1: tensor<f32>) -> (tensor<4x7xf32>) {
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x7xf32>
  return %0 : tensor<4x7xf32>
}

// CHECK-LABEL: func @reduce_window_padding_only
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=6, j=16} permutation={i}>
// CONSERVATIVE-LABEL: func @reduce_window_padding_only
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=6, j=16} permutation={i} blocked_propagation={i}>
func.func @reduce_window_padding_only(%arg0: tensor<4x16xf32>, %arg1: tensor<f32>) -> (tensor<6x16xf32>) {
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>, padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<6x16xf32>
  return %0 : tensor<6x16xf32>
}

// CHECK-LABEL: func @reduce_window_base_dilation_only
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=7, j=16}>
// CONSERVATIVE-LABEL: func @reduce_window_base_dilation_only
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=7, j=16}>
func.func @reduce_window_base_dilation_only(%arg0: tensor<4x16xf32>, %arg1: tensor<f32>) -> (tensor<7x16xf32>) {
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>, base_dilations = array<i64: 2, 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<7x16xf32>
  return %0 : tensor<7x16xf32>
}

// CHECK-LABEL: func @reduce_window_same_size
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=16} permutation={j}>
// CONSERVATIVE-LABEL: func @reduce_window_same_size
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=16} permutation={j} blocked_propagation={j}>
func.func @reduce_window_same_size(%arg0: tensor<4x16xf32>, %arg1: tensor<f32>) -> (tensor<4x16xf32>) {
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3>, padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func @reduce_window_variadic
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [], [])->([i, j], [i, j]) {i=4, j=6} permutation={i}>
// CONSERVATIVE-LABEL: func @reduce_window_variadic
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j], [], [])->([i, j], [i, j]) {i=4, j=6} permutation={i} blocked_propagation={i}>
func.func @reduce_window_variadic(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xi32>, %arg2: tensor<f32>, %arg3: tensor<i32>) -> (tensor<4x6xf32>, tensor<4x6xi32>) {
  %0:2 = "stablehlo.reduce_window"(%arg0, %arg1, %arg2, %arg3) ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    stablehlo.return %a, %b : tensor<f32>, tensor<i32>
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>} : (tensor<8x6xf32>, tensor<8x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x6xf32>, tensor<4x6xi32>)
  return %0#0, %0#1 : tensor<4x6xf32>, tensor<4x6xi32>
}

// CHECK-LABEL: func @select_and_scatter_2x2_pool
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, m, n], [i, j, l, n], [])->([i, k, m, n]) {i=4, j=4, k=8, l=4, m=8, n=3} need_replication={j, l} permutation={k, m}>
// CONSERVATIVE-LABEL: func @select_and_scatter_2x2_pool
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, k, m, n], [i, j, l, n], [])->([i, k, m, n]) {i=4, j=4, k=8, l=4, m=8, n=3} need_replication={j, l} permutation={k, m} blocked_propagation={j, k, l, m}>
func.func @select_and_scatter_2x2_pool(%arg0: tensor<4x8x8x3xf32>, %arg1: tensor<4x4x4x3xf32>, %arg2: tensor<f32>) -> (tensor<4x8x8x3xf32>) {
  %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<4x8x8x3xf32>, tensor<4x4x4x3xf32>, tensor<f32>) -> tensor<4x8x8x3xf32>
  return %0 : tensor<4x8x8x3xf32>
}

// CHECK-LABEL: func @select_and_scatter_padding_only
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [i, j], [])->([i, k]) {i=4, j=10, k=8} need_replication={j} permutation={k}>
// CONSERVATIVE-LABEL: func @select_and_scatter_padding_only
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [i, j], [])->([i, k]) {i=4, j=10, k=8} need_replication={j} permutation={k} blocked_propagation={j, k}>
func.func @select_and_scatter_padding_only(%arg0: tensor<4x8xf32>, %arg1: tensor<4x10xf32>, %arg2: tensor<f32>) -> (tensor<4x8xf32>) {
  %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>, padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>} : (tensor<4x8xf32>, tensor<4x10xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func @select_and_scatter_overlapping_windows
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([j, k], [i, k], [])->([j, k]) {i=4, j=6, k=5} need_replication={i} permutation={j}>
// CONSERVATIVE-LABEL: func @select_and_scatter_overlapping_windows
// CONSERVATIVE: sdy.sharding_rule = #sdy.op_sharding_rule<([j, k], [i, k], [])->([j, k]) {i=4, j=6, k=5} need_replication={i} permutation={j} blocked_propagation={i, j}>
func.func @select_and_scatter_overlapping_windows(%arg0: tensor<6x5xf32>, %arg1: tensor<4x5xf32>, %arg2: tensor<f32>) -> (tensor<6x5xf32>) {
  %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {window_dimensions = array<i64: 3, 1>} : (tensor<6x5xf32>, tensor<4x5xf32>, tensor<f32>) -> tensor<6x5xf32>
  return %0 : tensor<6x5xf32>
}
