// The batch index component is an iota concatenated with the column indices.
func.func @gather_concat(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>) -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %1 = stablehlo.concatenate %0, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Indices that are one broadcast iota: the other component is sliced out.
func.func @gather_broadcast_iota_slice(%arg0: tensor<4x4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xi32>) -> tensor<4x2xi32>
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<4x4xf32>, tensor<4x2xi32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// The batch component in the middle of three: two slices and a concatenate; attributes kept.
sdy.mesh @mesh = <["a"=2]>
func.func @gather_slice_middle_component(%arg0: tensor<4x4x4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xi32>) -> tensor<4x3xi32>
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1, 2], start_index_map = [1, 0, 2], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 1, 1>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<4x4x4xf32>, tensor<4x3xi32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// A concatenate of three parts loses its middle part.
func.func @gather_concat_three(%arg0: tensor<4x8x6xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<4x1xi32>) -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %1 = stablehlo.concatenate %arg1, %0, %arg2, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x3xi32>
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1, 2], start_index_map = [1, 0, 2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x8x6xf32>, tensor<4x3xi32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// A concatenate whose parts are not one component each: Shardy takes its part at the batch
// component's position anyway, and slices when the part counts differ.
func.func @gather_concat_wide_part(%arg0: tensor<4x8x6xf32>, %arg1: tensor<4x2xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %1 = stablehlo.concatenate %0, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x2xi32>) -> tensor<4x3xi32>
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1, 2], start_index_map = [0, 1, 2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x8x6xf32>, tensor<4x3xi32>) -> tensor<4xf32>
  %3 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1, 2], start_index_map = [1, 0, 2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x8x6xf32>, tensor<4x3xi32>) -> tensor<4xf32>
  %4 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1, 2], start_index_map = [1, 2, 0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x8x6xf32>, tensor<4x3xi32>) -> tensor<4xf32>
  return %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// The batch component falls inside a wide part: the part at its position is not an iota.
func.func @gather_wide_part_second(%arg0: tensor<4x8x6xf32>, %arg1: tensor<4x2xi32>) -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %1 = stablehlo.concatenate %arg1, %0, dim = 1 : (tensor<4x2xi32>, tensor<4x1xi32>) -> tensor<4x3xi32>
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1, 2], start_index_map = [1, 0, 2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x8x6xf32>, tensor<4x3xi32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// An iota along dim 1 is not a batch index.
func.func @gather_iota_dim_one(%arg0: tensor<4x4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 1 : tensor<4x2xi32>
  %1 = "stablehlo.gather"(%arg0, %0) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x4xf32>, tensor<4x2xi32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Seen through: clamp and reshape; a select whose false side is the iota, or else its true side.
func.func @gather_reshape_clamp_select(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<4xi1>, %arg3: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<4xi32>
  %c3 = stablehlo.constant dense<3> : tensor<4xi32>
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %1 = stablehlo.clamp %c0, %0, %c3 : tensor<4xi32>
  %2 = stablehlo.reshape %1 : (tensor<4xi32>) -> tensor<4x1xi32>
  %3 = stablehlo.concatenate %2, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %4 = "stablehlo.gather"(%arg0, %3) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4xf32>
  %5 = stablehlo.select %arg2, %0, %arg3 : tensor<4xi1>, tensor<4xi32>
  %6 = stablehlo.reshape %5 : (tensor<4xi32>) -> tensor<4x1xi32>
  %7 = stablehlo.concatenate %6, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %8 = "stablehlo.gather"(%arg0, %7) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4xf32>
  %9 = stablehlo.select %arg2, %arg3, %0 : tensor<4xi1>, tensor<4xi32>
  %10 = stablehlo.reshape %9 : (tensor<4xi32>) -> tensor<4x1xi32>
  %11 = stablehlo.concatenate %10, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %12 = "stablehlo.gather"(%arg0, %11) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4xf32>
  return %4, %8, %12 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A select whose false side is not an iota is followed on its true side.
func.func @gather_select_iota_true_side(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<4xi1>, %arg3: tensor<4xi32>) -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %b = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xi32>) -> tensor<4xi32>
  %5 = stablehlo.select %arg2, %b, %arg3 : tensor<4xi1>, tensor<4xi32>
  %6 = stablehlo.reshape %5 : (tensor<4xi32>) -> tensor<4x1xi32>
  %7 = stablehlo.concatenate %6, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %8 = "stablehlo.gather"(%arg0, %7) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4xf32>
  return %8 : tensor<4xf32>
}

// -----

// Not rewritten: batch sizes differ, dim 0 not collapsed, not indexed, one component, dim 0 not
// addressed by the iota component.
func.func @gather_not_rewritten(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<5x2xi32>, %arg3: tensor<4x8x3xf32>) -> (tensor<5xf32>, tensor<4x1xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x3xf32>) {
  %0 = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %1 = stablehlo.concatenate %0, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %2 = "stablehlo.gather"(%arg0, %arg2) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<5x2xi32>) -> tensor<5xf32>
  %3 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>
  %4 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x1xi32>) -> tensor<4xf32>
  %5 = "stablehlo.gather"(%arg0, %0) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x1xi32>) -> tensor<4xf32>
  %6 = "stablehlo.gather"(%arg3, %1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<4x8x3xf32>, tensor<4x2xi32>) -> tensor<4x3xf32>
  return %2, %3, %4, %5, %6 : tensor<5xf32>, tensor<4x1xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x3xf32>
}

// -----

// Explicit batching dims already: left alone, but the driver still erases the dead add.
func.func @gather_already_batched(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %c2 = stablehlo.constant dense<1> : tensor<i32>
  %dead = stablehlo.add %c, %c2 : tensor<i32>
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x1xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An implicit index vector dim (the indices' rank).
func.func @gather_index_vector_dim_last(%arg0: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4x2xi32>
  %1 = "stablehlo.gather"(%arg0, %0) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}

// -----

// Index vector dim 0 has the batch size: the rewrite makes an invalid gather, which the verifier
// rejects in both.
func.func @gather_index_vector_dim_zero(%arg0: tensor<2x8xf32>) -> tensor<4xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<2x4xi32>
  %1 = "stablehlo.gather"(%arg0, %0) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 0>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<2x8xf32>, tensor<2x4xi32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// A scatter of two inputs with discardable attributes and unique_indices.
sdy.mesh @mesh = <["a"=2]>
func.func @scatter_two_inputs(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xi32>, %arg2: tensor<4x1xi32>, %arg3: tensor<4xf32>, %arg4: tensor<4xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  %0 = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %1 = stablehlo.concatenate %0, %arg2, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %2:2 = "stablehlo.scatter"(%arg0, %arg1, %1, %arg3, %arg4) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %e = stablehlo.add %a, %c : tensor<f32>
    %f = stablehlo.add %b, %d : tensor<i32>
    stablehlo.return %e, %f : tensor<f32>, tensor<i32>
  }) {mhlo.frontend_attributes = {x = "y"}, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, [{}, {}]>]>} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x2xi32>, tensor<4xf32>, tensor<4xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
  return %2#0, %2#1 : tensor<4x8xf32>, tensor<4x8xi32>
}

// -----

// A scatter whose indices are a broadcast iota: one slice is left.
func.func @scatter_slice_path(%arg0: tensor<4x4x5xf32>, %arg1: tensor<4x5xf32>) -> tensor<4x4x5xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xi32>) -> tensor<4x2xi32>
  %2 = "stablehlo.scatter"(%arg0, %1, %arg1) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<4x4x5xf32>, tensor<4x2xi32>, tensor<4x5xf32>) -> tensor<4x4x5xf32>
  return %2 : tensor<4x4x5xf32>
}

// -----

// A gather in a while body: constants of the body and condition are hoisted to the function.
func.func @gather_in_while_body(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>) -> tensor<4x8xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c) : tensor<4x8xf32>, tensor<i32>
   cond {
    %c_1 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg_0, %c_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %c_2 = stablehlo.constant dense<2> : tensor<i32>
    %s = stablehlo.add %c_1, %c_2 : tensor<i32>
    %1 = stablehlo.iota dim = 0 : tensor<4x1xi32>
    %2 = stablehlo.concatenate %1, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
    %3 = "stablehlo.gather"(%iterArg, %2) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
    %5 = stablehlo.add %iterArg_0, %s : tensor<i32>
    stablehlo.return %4, %5 : tensor<4x8xf32>, tensor<i32>
  }
  return %0#0 : tensor<4x8xf32>
}

// -----

// Dynamic batch sizes compare equal.
func.func @gather_dynamic_batch(%arg0: tensor<?x8xf32>, %arg1: tensor<?x1xi32>) -> tensor<?xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %1 = stablehlo.concatenate %0, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<?x1xi32>) -> tensor<?x2xi32>
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<?x8xf32>, tensor<?x2xi32>) -> tensor<?xf32>
  return %2 : tensor<?xf32>
}

// -----

// Dynamic sizes in the slice path make an invalid slice, which the verifier rejects in both.
func.func @gather_dynamic_slice_path(%arg0: tensor<?x8xf32>, %arg1: tensor<?x2xi32>, %arg2: tensor<?x2xi1>) -> tensor<?xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4x2xi32>
  %1 = stablehlo.select %arg2, %arg1, %0 : (tensor<?x2xi1>, tensor<?x2xi32>, tensor<4x2xi32>) -> tensor<?x2xi32>
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<?x8xf32>, tensor<?x2xi32>) -> tensor<?xf32>
  return %2 : tensor<?xf32>
}

// -----

// No gather: constants are deduplicated and hoisted.
func.func @constants_only(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<4xf32>
  %c1 = stablehlo.constant dense<2.0> : tensor<4xf32>
  %c2 = stablehlo.constant dense<1.0> : tensor<4xf32>
  %0 = stablehlo.add %arg0, %c2 : tensor<4xf32>
  %1 = stablehlo.multiply %0, %c1 : tensor<4xf32>
  %2 = stablehlo.add %1, %c : tensor<4xf32>
  %3 = stablehlo.reshape %2 : (tensor<4xf32>) -> tensor<4xf32>
  %4 = stablehlo.convert %3 : tensor<4xf32>
  %5 = stablehlo.transpose %4, dims = [0] : (tensor<4xf32>) -> tensor<4xf32>
  return %5 : tensor<4xf32>
}

// -----

// Several functions; gathers in a manual computation and a named computation, whose constants stay
// in their own bodies.
sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x1xi32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%a: tensor<4x8xf32>, %b: tensor<4x1xi32>) {
    %c2 = stablehlo.constant dense<1> : tensor<i32>
    %i = stablehlo.iota dim = 0 : tensor<4x1xi32>
    %cc = stablehlo.concatenate %i, %b, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
    %g = "stablehlo.gather"(%a, %cc) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4xf32>
    sdy.return %g : tensor<4xf32>
  } : (tensor<8x8xf32>, tensor<8x1xi32>) -> tensor<8xf32>
  %1 = call @callee(%arg0, %arg1) : (tensor<8x8xf32>, tensor<8x1xi32>) -> tensor<8xf32>
  %2 = sdy.named_computation<"nc">(%arg0, %arg1) (%a: tensor<8x8xf32>, %b: tensor<8x1xi32>) {
    %i = stablehlo.iota dim = 0 : tensor<8x1xi32>
    %cc = stablehlo.concatenate %i, %b, dim = 1 : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x2xi32>
    %g = "stablehlo.gather"(%a, %cc) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x8xf32>, tensor<8x2xi32>) -> tensor<8xf32>
    %c3 = stablehlo.constant dense<2.0> : tensor<8xf32>
    %m = stablehlo.multiply %g, %c3 : tensor<8xf32>
    sdy.return %m : tensor<8xf32>
  } : (tensor<8x8xf32>, tensor<8x1xi32>) -> tensor<8xf32>
  %3 = stablehlo.add %1, %2 : tensor<8xf32>
  return %0, %3 : tensor<8xf32>, tensor<8xf32>
}
func.func private @callee(%arg0: tensor<8x8xf32>, %arg1: tensor<8x1xi32>) -> tensor<8xf32> {
  %c3 = stablehlo.constant dense<2.0> : tensor<8xf32>
  %i = stablehlo.iota dim = 0 : tensor<8x1xi32>
  %cc = stablehlo.concatenate %i, %arg1, dim = 1 : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x2xi32>
  %g = "stablehlo.gather"(%arg0, %cc) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x8xf32>, tensor<8x2xi32>) -> tensor<8xf32>
  %c4 = stablehlo.constant dense<2.0> : tensor<8xf32>
  %m = stablehlo.multiply %g, %c4 : tensor<8xf32>
  %n = stablehlo.multiply %m, %c3 : tensor<8xf32>
  return %n : tensor<8xf32>
}
