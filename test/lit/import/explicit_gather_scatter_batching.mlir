// RUN: pysdy-opt %s -split-input-file -sdy-explicit-gather-scatter-batching 2>/dev/null | filecheck %s

// The batch index is an iota concatenated with the column indices: the iota part goes, the
// concatenate (now dead) is erased, and dim 0 becomes a batching dim of operand and indices.
// CHECK-LABEL: func.func @gather_iota_concatenated_with_columns(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>) -> tensor<4xf32> {
// CHECK-NEXT: %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x1xi32>) -> tensor<4xf32>
// CHECK-NEXT: return %0 : tensor<4xf32>
// CHECK-NEXT: }
func.func @gather_iota_concatenated_with_columns(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>) -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %1 = stablehlo.concatenate %0, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Three index parts, the iota in the middle: the other two are concatenated anew.
// CHECK-LABEL: func.func @gather_iota_between_two_parts(%arg0: tensor<4x8x6xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<4x1xi32>) -> tensor<4xf32> {
// CHECK-NEXT: %0 = stablehlo.concatenate %arg1, %arg2, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
// CHECK-NEXT: %1 = "stablehlo.gather"(%arg0, %0) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1, 2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x8x6xf32>, tensor<4x2xi32>) -> tensor<4xf32>
// CHECK-NEXT: return %1 : tensor<4xf32>
// CHECK-NEXT: }
func.func @gather_iota_between_two_parts(%arg0: tensor<4x8x6xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<4x1xi32>) -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %1 = stablehlo.concatenate %arg1, %0, %arg2, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x3xi32>
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1, 2], start_index_map = [1, 0, 2], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x8x6xf32>, tensor<4x3xi32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Indices that are all a broadcast iota: the other components are sliced out of them, around the
// removed one, and concatenated; the attributes the gather had stay.
// CHECK: sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @gather_sliced_around_batch_component(%arg0: tensor<4x4x4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: %0 = stablehlo.iota dim = 0 : tensor<4xi32>
// CHECK-NEXT: %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xi32>) -> tensor<4x3xi32>
// CHECK-NEXT: %2 = stablehlo.slice %1 [0:4, 0:1] : (tensor<4x3xi32>) -> tensor<4x1xi32>
// CHECK-NEXT: %3 = stablehlo.slice %1 [0:4, 2:3] : (tensor<4x3xi32>) -> tensor<4x1xi32>
// CHECK-NEXT: %4 = stablehlo.concatenate %2, %3, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
// CHECK-NEXT: %5 = "stablehlo.gather"(%arg0, %4) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1, 2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<4x4x4xf32>, tensor<4x2xi32>) -> tensor<4xf32>
// CHECK-NEXT: return %5 : tensor<4xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2]>
func.func @gather_sliced_around_batch_component(%arg0: tensor<4x4x4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xi32>) -> tensor<4x3xi32>
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1, 2], start_index_map = [1, 0, 2], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 1>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<4x4x4xf32>, tensor<4x3xi32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// JAX's `x[jnp.arange(4), cols]`: the iota wrapped for negative indices, a select whose false side
// is the iota.
// CHECK-LABEL: func.func @gather_jax_wrapped_iota(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>) -> tensor<4xf32> {
// CHECK-NEXT: %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x1xi32>) -> tensor<4xf32>
// CHECK-NEXT: return %0 : tensor<4xf32>
// CHECK-NEXT: }
func.func @gather_jax_wrapped_iota(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>) -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %c = stablehlo.constant dense<0> : tensor<4xi32>
  %1 = stablehlo.compare LT, %0, %c, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %c_0 = stablehlo.constant dense<4> : tensor<4xi32>
  %2 = stablehlo.add %0, %c_0 : tensor<4xi32>
  %3 = stablehlo.select %1, %2, %0 : tensor<4xi1>, tensor<4xi32>
  %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
  %5 = stablehlo.concatenate %4, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4xf32>
  return %6 : tensor<4xf32>
}

// -----

// A clamped and reshaped iota is seen through too.
// CHECK-LABEL: func.func @gather_clamped_reshaped_iota(%arg0: tensor<4x8x3xf32>, %arg1: tensor<4x1xi32>) -> tensor<4x3xf32> {
// CHECK-NEXT: %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<4x8x3xf32>, tensor<4x1xi32>) -> tensor<4x3xf32>
// CHECK-NEXT: return %0 : tensor<4x3xf32>
// CHECK-NEXT: }
func.func @gather_clamped_reshaped_iota(%arg0: tensor<4x8x3xf32>, %arg1: tensor<4x1xi32>) -> tensor<4x3xf32> {
  %c = stablehlo.constant dense<0> : tensor<4xi32>
  %c_0 = stablehlo.constant dense<3> : tensor<4xi32>
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %1 = stablehlo.clamp %c, %0, %c_0 : tensor<4xi32>
  %2 = stablehlo.reshape %1 : (tensor<4xi32>) -> tensor<4x1xi32>
  %3 = stablehlo.concatenate %arg1, %2, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %4 = "stablehlo.gather"(%arg0, %3) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<4x8x3xf32>, tensor<4x2xi32>) -> tensor<4x3xf32>
  return %4 : tensor<4x3xf32>
}

// -----

// A scatter of two inputs: its update computation moves to the new scatter, its attributes stay.
// CHECK: sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @scatter_two_inputs(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xi32>, %arg2: tensor<4x1xi32>, %arg3: tensor<4xf32>, %arg4: tensor<4xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
// CHECK-NEXT: %0:2 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = true}> ({
// CHECK-NEXT: ^bb0(%arg5: tensor<f32>, %arg6: tensor<i32>, %arg7: tensor<f32>, %arg8: tensor<i32>):
// CHECK-NEXT: %1 = stablehlo.add %arg5, %arg7 : tensor<f32>
// CHECK-NEXT: %2 = stablehlo.add %arg6, %arg8 : tensor<i32>
// CHECK-NEXT: stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
// CHECK-NEXT: }) {mhlo.frontend_attributes = {tag = "s"}, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, [{}, {}]>]>} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x1xi32>, tensor<4xf32>, tensor<4xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
// CHECK-NEXT: return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x8xi32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2]>
func.func @scatter_two_inputs(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xi32>, %arg2: tensor<4x1xi32>, %arg3: tensor<4xf32>, %arg4: tensor<4xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  %0 = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %1 = stablehlo.concatenate %0, %arg2, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %2:2 = "stablehlo.scatter"(%arg0, %arg1, %1, %arg3, %arg4) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%arg5: tensor<f32>, %arg6: tensor<i32>, %arg7: tensor<f32>, %arg8: tensor<i32>):
    %3 = stablehlo.add %arg5, %arg7 : tensor<f32>
    %4 = stablehlo.add %arg6, %arg8 : tensor<i32>
    stablehlo.return %3, %4 : tensor<f32>, tensor<i32>
  }) {mhlo.frontend_attributes = {tag = "s"}, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, [{}, {}]>]>} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x2xi32>, tensor<4xf32>, tensor<4xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
  return %2#0, %2#1 : tensor<4x8xf32>, tensor<4x8xi32>
}

// -----

// A scatter whose indices are one broadcast iota of two components: one slice is left.
// CHECK-LABEL: func.func @scatter_one_slice_left(%arg0: tensor<4x4x5xf32>, %arg1: tensor<4x5xf32>) -> tensor<4x4x5xf32> {
// CHECK-NEXT: %0 = stablehlo.iota dim = 0 : tensor<4xi32>
// CHECK-NEXT: %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xi32>) -> tensor<4x2xi32>
// CHECK-NEXT: %2 = stablehlo.slice %1 [0:4, 0:1] : (tensor<4x2xi32>) -> tensor<4x1xi32>
// CHECK-NEXT: %3 = "stablehlo.scatter"(%arg0, %2, %arg1) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: stablehlo.return %arg3 : tensor<f32>
// CHECK-NEXT: }) : (tensor<4x4x5xf32>, tensor<4x1xi32>, tensor<4x5xf32>) -> tensor<4x4x5xf32>
// CHECK-NEXT: return %3 : tensor<4x4x5xf32>
// CHECK-NEXT: }
func.func @scatter_one_slice_left(%arg0: tensor<4x4x5xf32>, %arg1: tensor<4x5xf32>) -> tensor<4x4x5xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xi32>) -> tensor<4x2xi32>
  %2 = "stablehlo.scatter"(%arg0, %1, %arg1) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
    stablehlo.return %arg3 : tensor<f32>
  }) : (tensor<4x4x5xf32>, tensor<4x2xi32>, tensor<4x5xf32>) -> tensor<4x4x5xf32>
  return %2 : tensor<4x4x5xf32>
}

// -----

// Not rewritten: an iota along dim 1, batch sizes that differ, the batch dim not collapsed, not
// indexed, an index vector of one component, and explicit batching dims already.
// CHECK-LABEL: func.func @gathers_left_alone(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<5x2xi32>, %arg3: tensor<4x8x6xf32>) -> (tensor<4xf32>, tensor<5xf32>, tensor<4x1xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT: %0 = stablehlo.iota dim = 1 : tensor<4x2xi32>
// CHECK-NEXT: %1 = "stablehlo.gather"(%arg0, %0) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4xf32>
// CHECK-NEXT: %2 = "stablehlo.gather"(%arg0, %arg2) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<5x2xi32>) -> tensor<5xf32>
// CHECK-NEXT: %3 = stablehlo.iota dim = 0 : tensor<4x1xi32>
// CHECK-NEXT: %4 = stablehlo.concatenate %3, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
// CHECK-NEXT: %5 = "stablehlo.gather"(%arg0, %4) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>
// CHECK-NEXT: %6 = "stablehlo.gather"(%arg3, %4) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1, 2], start_index_map = [2, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 4, 1, 1>}> : (tensor<4x8x6xf32>, tensor<4x2xi32>) -> tensor<4x4xf32>
// CHECK-NEXT: %7 = "stablehlo.gather"(%arg0, %3) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x1xi32>) -> tensor<4xf32>
// CHECK-NEXT: %8 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x1xi32>) -> tensor<4xf32>
// CHECK-NEXT: return %1, %2, %5, %6, %7, %8 : tensor<4xf32>, tensor<5xf32>, tensor<4x1xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
func.func @gathers_left_alone(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<5x2xi32>, %arg3: tensor<4x8x6xf32>) -> (tensor<4xf32>, tensor<5xf32>, tensor<4x1xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.iota dim = 1 : tensor<4x2xi32>
  %1 = "stablehlo.gather"(%arg0, %0) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4xf32>
  %2 = "stablehlo.gather"(%arg0, %arg2) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<5x2xi32>) -> tensor<5xf32>
  %3 = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %4 = stablehlo.concatenate %3, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %5 = "stablehlo.gather"(%arg0, %4) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>
  %6 = "stablehlo.gather"(%arg3, %4) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1, 2], start_index_map = [2, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 4, 1, 1>}> : (tensor<4x8x6xf32>, tensor<4x2xi32>) -> tensor<4x4xf32>
  %7 = "stablehlo.gather"(%arg0, %3) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x1xi32>) -> tensor<4xf32>
  %8 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x1xi32>) -> tensor<4xf32>
  return %1, %2, %5, %6, %7, %8 : tensor<4xf32>, tensor<5xf32>, tensor<4x1xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Without any gather or scatter, the rewrite driver still folds: dead ops go, equal constants
// become one, and constants move to the top of the function (last visited first).
// CHECK-LABEL: func.func @constants_folded_without_gathers(%arg0: tensor<4xi32>) -> tensor<4xi32> {
// CHECK-NEXT: %c = stablehlo.constant dense<2> : tensor<4xi32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<1> : tensor<4xi32>
// CHECK-NEXT: %0 = stablehlo.add %arg0, %c_0 : tensor<4xi32>
// CHECK-NEXT: %1 = stablehlo.multiply %0, %c : tensor<4xi32>
// CHECK-NEXT: %2 = stablehlo.add %1, %c_0 : tensor<4xi32>
// CHECK-NEXT: return %2 : tensor<4xi32>
// CHECK-NEXT: }
func.func @constants_folded_without_gathers(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  %c = stablehlo.constant dense<1> : tensor<4xi32>
  %0 = stablehlo.add %arg0, %c : tensor<4xi32>
  %c_0 = stablehlo.constant dense<2> : tensor<4xi32>
  %1 = stablehlo.multiply %0, %c_0 : tensor<4xi32>
  %c_1 = stablehlo.constant dense<1> : tensor<4xi32>
  %2 = stablehlo.add %1, %c_1 : tensor<4xi32>
  %3 = stablehlo.negate %2 : tensor<4xi32>
  return %2 : tensor<4xi32>
}
