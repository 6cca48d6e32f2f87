// RUN: pysdy-opt %s -split-input-file '--pass-pipeline=builtin.module(sdy-convert-global-to-local{enable-rgv3=false})' | filecheck %s
// UNSUPPORTED: convert_global_to_local_masks_by_scalar
// REQUIRES: convert_global_to_local_marks_index_offsets

// Before jax 0.12, a scatter whose updates are split along its scatter dimensions keeps its operand on the first
// device of each group by the entry of a device table broadcast to the operand's shape, read by the partition id
// converted to i64 (the expected lines are jax 0.11's output); and a scatter into a split dimension moves its indices
// by the device's offset from an i64 table.

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @scatter_into_split_rows(
// CHECK-SAME: %arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x1xi64>, %arg2: tensor<8x16xf32>) -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.convert %0 : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT: %c = stablehlo.constant dense<[0, 16, 32, 48, 0, 16, 32, 48]> : tensor<8xi64>
// CHECK-NEXT: %2 = stablehlo.dynamic_slice %c, %1, sizes = [1] : (tensor<8xi64>, tensor<i64>) -> tensor<1xi64>
// CHECK-NEXT: %3 = stablehlo.reshape %2 : (tensor<1xi64>) -> tensor<i64>
// CHECK-NEXT: %4 = stablehlo.convert %3 : tensor<i64>
// CHECK-NEXT: %5 = stablehlo.broadcast_in_dim %4, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<i64>) -> tensor<8x1xi64>
// CHECK-NEXT: %6 = stablehlo.subtract %arg1, %5 : tensor<8x1xi64>
// CHECK-NEXT: %7 = "stablehlo.scatter"(%arg0, %6, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
// CHECK-NEXT: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK-NEXT: stablehlo.return %arg4 : tensor<f32>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<16x16xf32>, tensor<8x1xi64>, tensor<8x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT: return %7 : tensor<16x16xf32>
// CHECK-NEXT: }
func.func @scatter_into_split_rows(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x1xi64>, %arg2: tensor<8x16xf32>) -> (tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<64x16xf32>, tensor<8x1xi64>, tensor<8x16xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @scatter_split_updates_and_rows(
// CHECK-SAME: %arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<4x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg2: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.convert %0 : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT: %c = stablehlo.constant dense<[true, true, true, true, false, false, false, false]> : tensor<8xi1>
// CHECK-NEXT: %2 = stablehlo.dynamic_slice %c, %1, sizes = [1] : (tensor<8xi1>, tensor<i64>) -> tensor<1xi1>
// CHECK-NEXT: %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<1xi1>) -> tensor<16x16xi1>
// CHECK-NEXT: %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
// CHECK-NEXT: %5 = stablehlo.select %3, %arg0, %4 : tensor<16x16xi1>, tensor<16x16xf32>
// CHECK-NEXT: %6 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %7 = stablehlo.convert %6 : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<[0, 16, 32, 48, 0, 16, 32, 48]> : tensor<8xi64>
// CHECK-NEXT: %8 = stablehlo.dynamic_slice %c_0, %7, sizes = [1] : (tensor<8xi64>, tensor<i64>) -> tensor<1xi64>
// CHECK-NEXT: %9 = stablehlo.reshape %8 : (tensor<1xi64>) -> tensor<i64>
// CHECK-NEXT: %10 = stablehlo.convert %9 : (tensor<i64>) -> tensor<i32>
// CHECK-NEXT: %11 = stablehlo.broadcast_in_dim %10, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<i32>) -> tensor<4x1xi32>
// CHECK-NEXT: %12 = stablehlo.subtract %arg1, %11 : tensor<4x1xi32>
// CHECK-NEXT: %13 = "stablehlo.scatter"(%5, %12, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
// CHECK-NEXT: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK-NEXT: %15 = stablehlo.add %arg3, %arg4 : tensor<f32>
// CHECK-NEXT: stablehlo.return %15 : tensor<f32>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<16x16xf32>, tensor<4x1xi32>, tensor<4x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT: %14 = "stablehlo.all_reduce"(%13) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7{{\]\]}}> : tensor<4x2xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK-NEXT: %15 = stablehlo.add %arg3, %arg4 : tensor<f32>
// CHECK-NEXT: stablehlo.return %15 : tensor<f32>
// CHECK-NEXT: }) : (tensor<16x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT: return %14 : tensor<16x16xf32>
// CHECK-NEXT: }
func.func @scatter_split_updates_and_rows(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<64x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>) -> tensor<64x16xf32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<64x16xf32>
  return %1 : tensor<64x16xf32>
}
