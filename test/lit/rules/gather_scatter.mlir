// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s

// stablehlo.gather and stablehlo.scatter: unsliced offset (update window) dims are
// shared by the operand and the result (updates); sliced ones get separate
// factors. Batch dims are shared by the indices and the result (updates), and
// by the operand when they are explicit batching dims. Collapsed dims are
// reductions for gather (need replication if of size 1), and the index vector
// dim needs replication. A scatter's implicit batch dims are reductions when
// its update computation combines like an all-reduce (one add, multiply,
// maximum or minimum, or and/or on i1, per result), else need replication.

// CHECK-LABEL: func @gather_embedding_lookup
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([l, k], [i, j, m])->([i, j, k]) {i=8, j=16, k=64, l=1000, m=1} reduction={l} need_replication={m}>
func.func @gather_embedding_lookup(%arg0: tensor<1000x64xf32>, %arg1: tensor<8x16x1xi32>) -> tensor<8x16x64xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x16x1xi32>) -> tensor<8x16x64xf32>
  return %0 : tensor<8x16x64xf32>
}

// CHECK-LABEL: func @gather_sliced_window
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([j, k], [i, l])->([i, j, k]) {i=4, j=16, k=32, l=1} need_replication={k, l} blocked_propagation={k}>
func.func @gather_sliced_window(%arg0: tensor<16x32xf32>, %arg1: tensor<4x1xi32>) -> tensor<4x16x8xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 16, 8>} : (tensor<16x32xf32>, tensor<4x1xi32>) -> tensor<4x16x8xf32>
  return %0 : tensor<4x16x8xf32>
}

// CHECK-LABEL: func @gather_window_of_one_without_collapsing
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([j, k], [i, m])->([i, j, l]) {i=4, j=16, k=32, l=1, m=1} reduction={k} need_replication={l, m}>
func.func @gather_window_of_one_without_collapsing(%arg0: tensor<16x32xf32>, %arg1: tensor<4x1xi32>) -> tensor<4x16x1xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 16, 1>} : (tensor<16x32xf32>, tensor<4x1xi32>) -> tensor<4x16x1xf32>
  return %0 : tensor<4x16x1xf32>
}

// CHECK-LABEL: func @gather_collapsed_dim_of_size_one
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([k, j], [i, l])->([i, j]) {i=4, j=32, k=1, l=2} need_replication={k, l}>
func.func @gather_collapsed_dim_of_size_one(%arg0: tensor<1x32xf32>, %arg1: tensor<4x2xi32>) -> tensor<4x32xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 32>} : (tensor<1x32xf32>, tensor<4x2xi32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// CHECK-LABEL: func @gather_index_vector_dim_in_the_middle
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([l, m, k], [i, n, j])->([i, j, k]) {i=3, j=7, k=5, l=8, m=12, n=2} reduction={l, m} need_replication={n}>
func.func @gather_index_vector_dim_in_the_middle(%arg0: tensor<8x12x5xf32>, %arg1: tensor<3x2x7xi32>) -> tensor<3x7x5xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 5>} : (tensor<8x12x5xf32>, tensor<3x2x7xi32>) -> tensor<3x7x5xf32>
  return %0 : tensor<3x7x5xf32>
}

// CHECK-LABEL: func @gather_implicit_index_vector_dim
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([l, k], [i, j])->([i, j, k]) {i=3, j=7, k=5, l=8} reduction={l}>
func.func @gather_implicit_index_vector_dim(%arg0: tensor<8x5xf32>, %arg1: tensor<3x7xi32>) -> tensor<3x7x5xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 5>} : (tensor<8x5xf32>, tensor<3x7xi32>) -> tensor<3x7x5xf32>
  return %0 : tensor<3x7x5xf32>
}

// CHECK-LABEL: func @gather_batching_dims
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([j, l, i], [i, j, k, m])->([i, j, k, l]) {i=6, j=4, k=3, l=10, m=1} need_replication={m}>
func.func @gather_batching_dims(%arg0: tensor<4x10x6xf32>, %arg1: tensor<6x4x3x1xi32>) -> tensor<6x4x3x10xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [3], operand_batching_dims = [0, 2], start_indices_batching_dims = [1, 0], start_index_map = [1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 10, 1>} : (tensor<4x10x6xf32>, tensor<6x4x3x1xi32>) -> tensor<6x4x3x10xf32>
  return %0 : tensor<6x4x3x10xf32>
}

// CHECK-LABEL: func @scatter_add_rows
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([k, j], [i, l], [i, j])->([k, j]) {i=8, j=16, k=64, l=1} reduction={i} need_replication={l}>
func.func @scatter_add_rows(%arg0: tensor<64x16xf32>, %arg1: tensor<8x1xi32>, %arg2: tensor<8x16xf32>) -> (tensor<64x16xf32>) {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%b0: tensor<f32>, %b1: tensor<f32>):
    %1 = stablehlo.add %b0, %b1 : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<64x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>) -> (tensor<64x16xf32>)
  return %0 : tensor<64x16xf32>
}

// CHECK-LABEL: func @scatter_set_rows
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([k, j], [i, l], [i, j])->([k, j]) {i=8, j=16, k=64, l=1} need_replication={i, l}>
func.func @scatter_set_rows(%arg0: tensor<64x16xf32>, %arg1: tensor<8x1xi32>, %arg2: tensor<8x16xf32>) -> (tensor<64x16xf32>) {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%b0: tensor<f32>, %b1: tensor<f32>):
    stablehlo.return %b1 : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<64x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>) -> (tensor<64x16xf32>)
  return %0 : tensor<64x16xf32>
}

// CHECK-LABEL: func @scatter_sliced_window
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([l, j], [i, m], [i, k])->([l, j]) {i=8, j=16, k=4, l=64, m=1} reduction={i} need_replication={j, k, m}>
func.func @scatter_sliced_window(%arg0: tensor<64x16xf32>, %arg1: tensor<8x1xi32>, %arg2: tensor<8x4xf32>) -> (tensor<64x16xf32>) {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%b0: tensor<f32>, %b1: tensor<f32>):
    %1 = stablehlo.add %b0, %b1 : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<64x16xf32>, tensor<8x1xi32>, tensor<8x4xf32>) -> (tensor<64x16xf32>)
  return %0 : tensor<64x16xf32>
}

// CHECK-LABEL: func @scatter_batching_dims
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, l, k], [i, j, m], [i, j, k])->([i, l, k]) {i=4, j=8, k=16, l=64, m=1} reduction={j} need_replication={m}>
func.func @scatter_batching_dims(%arg0: tensor<4x64x16xf32>, %arg1: tensor<4x8x1xi32>, %arg2: tensor<4x8x16xf32>) -> (tensor<4x64x16xf32>) {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%b0: tensor<f32>, %b1: tensor<f32>):
    %1 = stablehlo.add %b0, %b1 : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>} : (tensor<4x64x16xf32>, tensor<4x8x1xi32>, tensor<4x8x16xf32>) -> (tensor<4x64x16xf32>)
  return %0 : tensor<4x64x16xf32>
}

// CHECK-LABEL: func @scatter_variadic_max
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([k, j], [k, j], [i, l], [i, j], [i, j])->([k, j], [k, j]) {i=8, j=16, k=64, l=1} reduction={i} need_replication={l}>
func.func @scatter_variadic_max(%arg0: tensor<64x16xf32>, %arg1: tensor<64x16xi32>, %arg2: tensor<8x1xi32>, %arg3: tensor<8x16xf32>, %arg4: tensor<8x16xi32>) -> (tensor<64x16xf32>, tensor<64x16xi32>) {
  %0:2 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg4) ({
  ^bb0(%b0: tensor<f32>, %b1: tensor<i32>, %b2: tensor<f32>, %b3: tensor<i32>):
    %1 = stablehlo.maximum %b0, %b2 : tensor<f32>
    %2 = stablehlo.maximum %b3, %b1 : tensor<i32>
    stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<64x16xf32>, tensor<64x16xi32>, tensor<8x1xi32>, tensor<8x16xf32>, tensor<8x16xi32>) -> (tensor<64x16xf32>, tensor<64x16xi32>)
  return %0#0, %0#1 : tensor<64x16xf32>, tensor<64x16xi32>
}

// CHECK-LABEL: func @scatter_variadic_mixed_ops
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([k, j], [k, j], [i, l], [i, j], [i, j])->([k, j], [k, j]) {i=8, j=16, k=64, l=1} need_replication={i, l}>
func.func @scatter_variadic_mixed_ops(%arg0: tensor<64x16xf32>, %arg1: tensor<64x16xf32>, %arg2: tensor<8x1xi32>, %arg3: tensor<8x16xf32>, %arg4: tensor<8x16xf32>) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %0:2 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg4) ({
  ^bb0(%b0: tensor<f32>, %b1: tensor<f32>, %b2: tensor<f32>, %b3: tensor<f32>):
    %1 = stablehlo.add %b0, %b2 : tensor<f32>
    %2 = stablehlo.multiply %b1, %b3 : tensor<f32>
    stablehlo.return %1, %2 : tensor<f32>, tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<64x16xf32>, tensor<64x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<64x16xf32>, tensor<64x16xf32>)
  return %0#0, %0#1 : tensor<64x16xf32>, tensor<64x16xf32>
}

// CHECK-LABEL: func @scatter_or_on_booleans
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([j], [i, k], [i])->([j]) {i=8, j=64, k=1} reduction={i} need_replication={k}>
func.func @scatter_or_on_booleans(%arg0: tensor<64xi1>, %arg1: tensor<8x1xi32>, %arg2: tensor<8xi1>) -> (tensor<64xi1>) {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%b0: tensor<i1>, %b1: tensor<i1>):
    %1 = stablehlo.or %b0, %b1 : tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<64xi1>, tensor<8x1xi32>, tensor<8xi1>) -> (tensor<64xi1>)
  return %0 : tensor<64xi1>
}
