// RUN: pysdy-opt %s -split-input-file '--pass-pipeline=builtin.module(sdy-convert-global-to-local{enable-rgv3=false})' | filecheck %s
// REQUIRES: convert_global_to_local_masks_by_scalar

// Gathers and scatters that index dimensions split across devices, as jax 0.12's Shardy converts them (the expected
// lines are its output): a gather's start indices clamped, moved by the device's offsets and masked outside its
// part, then its partial sums all-reduced; a scatter's indices moved by the offsets; updates split along the
// scatter dimensions scattered into the operand on the first device of each group and into the identity on the
// others, then all-reduced (by the pass itself where no sdy collective follows).

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @gather_rows_split(
// CHECK-SAME: %arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<2x8x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) -> (tensor<2x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) {
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<2x8x1xi32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<63> : tensor<2x8x1xi32>
// CHECK-NEXT: %0 = stablehlo.clamp %c, %arg1, %c_0 : tensor<2x8x1xi32>
// CHECK-NEXT: %1 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<[0, 16, 32, 48, 0, 16, 32, 48]> : tensor<8xi32>
// CHECK-NEXT: %2 = stablehlo.dynamic_slice %c_1, %1, sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT: %3 = stablehlo.reshape %2 : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT: %4 = stablehlo.convert %3 : tensor<i32>
// CHECK-NEXT: %c_2 = stablehlo.constant dense<15> : tensor<i32>
// CHECK-NEXT: %5 = stablehlo.add %4, %c_2 : tensor<i32>
// CHECK-NEXT: %6 = stablehlo.broadcast_in_dim %4, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}]>]>} : (tensor<i32>) -> tensor<2x8x1xi32>
// CHECK-NEXT: %7 = stablehlo.broadcast_in_dim %5, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {}]>]>} : (tensor<i32>) -> tensor<2x8x1xi32>
// CHECK-NEXT: %8 = stablehlo.subtract %0, %6 : tensor<2x8x1xi32>
// CHECK-NEXT: %9 = stablehlo.compare GE, %0, %6 : (tensor<2x8x1xi32>, tensor<2x8x1xi32>) -> tensor<2x8x1xi1>
// CHECK-NEXT: %10 = stablehlo.compare LE, %0, %7 : (tensor<2x8x1xi32>, tensor<2x8x1xi32>) -> tensor<2x8x1xi1>
// CHECK-NEXT: %11 = stablehlo.and %9, %10 : tensor<2x8x1xi1>
// CHECK-NEXT: %12 = "stablehlo.gather"(%arg0, %8) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<16x16xf32>, tensor<2x8x1xi32>) -> tensor<2x8x16xf32>
// CHECK-NEXT: %c_3 = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT: %13 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<2x8x1xi1>, tensor<i1>) -> tensor<2x8xi1>
// CHECK-NEXT: %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<2x8xi1>) -> tensor<2x8x16xi1>
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<2x8x16xf32>
// CHECK-NEXT: %15 = stablehlo.select %14, %12, %cst : tensor<2x8x16xi1>, tensor<2x8x16xf32>
// CHECK-NEXT: %16 = "stablehlo.all_reduce"(%15) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7{{\]\]}}> : tensor<2x4xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %17 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %17 : tensor<f32>
// CHECK-NEXT: }) : (tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
// CHECK-NEXT: return %16 : tensor<2x8x16xf32>
// CHECK-NEXT: }
func.func @gather_rows_split(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<4x8x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) -> (tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>} : (tensor<64x16xf32>, tensor<4x8x1xi32>) -> tensor<4x8x16xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}, {}, {}]> : tensor<4x8x16xf32>
  return %1 : tensor<4x8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @gather_implicit_index_vector_i64(
// CHECK-SAME: %arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8xi64>) -> tensor<8x16xf32> {
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<8xi64>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<63> : tensor<8xi64>
// CHECK-NEXT: %0 = stablehlo.clamp %c, %arg1, %c_0 : tensor<8xi64>
// CHECK-NEXT: %1 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<[0, 16, 32, 48, 0, 16, 32, 48]> : tensor<8xi32>
// CHECK-NEXT: %2 = stablehlo.dynamic_slice %c_1, %1, sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT: %3 = stablehlo.reshape %2 : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT: %4 = stablehlo.convert %3 : (tensor<i32>) -> tensor<i64>
// CHECK-NEXT: %c_2 = stablehlo.constant dense<15> : tensor<i64>
// CHECK-NEXT: %5 = stablehlo.add %4, %c_2 : tensor<i64>
// CHECK-NEXT: %6 = stablehlo.broadcast_in_dim %4, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<i64>) -> tensor<8xi64>
// CHECK-NEXT: %7 = stablehlo.broadcast_in_dim %5, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<i64>) -> tensor<8xi64>
// CHECK-NEXT: %8 = stablehlo.subtract %0, %6 : tensor<8xi64>
// CHECK-NEXT: %9 = stablehlo.compare GE, %0, %6 : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi1>
// CHECK-NEXT: %10 = stablehlo.compare LE, %0, %7 : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi1>
// CHECK-NEXT: %11 = stablehlo.and %9, %10 : tensor<8xi1>
// CHECK-NEXT: %12 = "stablehlo.gather"(%arg0, %8) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<16x16xf32>, tensor<8xi64>) -> tensor<8x16xf32>
// CHECK-NEXT: %13 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<8xi1>) -> tensor<8x16xi1>
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<8x16xf32>
// CHECK-NEXT: %14 = stablehlo.select %13, %12, %cst : tensor<8x16xi1>, tensor<8x16xf32>
// CHECK-NEXT: %15 = "stablehlo.all_reduce"(%14) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7{{\]\]}}> : tensor<2x4xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %16 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %16 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %15 : tensor<8x16xf32>
// CHECK-NEXT: }
func.func @gather_implicit_index_vector_i64(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8xi64>) -> tensor<8x16xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<64x16xf32>, tensor<8xi64>) -> tensor<8x16xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @gather_one_of_two_components_split(
// CHECK-SAME: %arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x2xi32>) -> tensor<8x4xf32> {
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<8x2xi32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<[15, 63]> : tensor<2xi32>
// CHECK-NEXT: %0 = stablehlo.broadcast_in_dim %c_0, dims = [1] : (tensor<2xi32>) -> tensor<8x2xi32>
// CHECK-NEXT: %1 = stablehlo.clamp %c, %arg1, %0 : tensor<8x2xi32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %c_2 = stablehlo.constant dense<15> : tensor<i32>
// CHECK-NEXT: %2 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c_3 = stablehlo.constant dense<[0, 16, 32, 48, 0, 16, 32, 48]> : tensor<8xi32>
// CHECK-NEXT: %3 = stablehlo.dynamic_slice %c_3, %2, sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT: %4 = stablehlo.reshape %3 : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT: %5 = stablehlo.convert %4 : tensor<i32>
// CHECK-NEXT: %c_4 = stablehlo.constant dense<15> : tensor<i32>
// CHECK-NEXT: %6 = stablehlo.add %5, %c_4 : tensor<i32>
// CHECK-NEXT: %7 = stablehlo.reshape %c_1 : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT: %8 = stablehlo.reshape %5 : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT: %9 = stablehlo.concatenate %7, %8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
// CHECK-NEXT: %10 = stablehlo.broadcast_in_dim %9, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<2xi32>) -> tensor<8x2xi32>
// CHECK-NEXT: %11 = stablehlo.reshape %c_2 : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT: %12 = stablehlo.reshape %6 : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT: %13 = stablehlo.concatenate %11, %12, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
// CHECK-NEXT: %14 = stablehlo.broadcast_in_dim %13, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<2xi32>) -> tensor<8x2xi32>
// CHECK-NEXT: %15 = stablehlo.subtract %1, %10 : tensor<8x2xi32>
// CHECK-NEXT: %16 = stablehlo.compare GE, %1, %10 : (tensor<8x2xi32>, tensor<8x2xi32>) -> tensor<8x2xi1>
// CHECK-NEXT: %17 = stablehlo.compare LE, %1, %14 : (tensor<8x2xi32>, tensor<8x2xi32>) -> tensor<8x2xi1>
// CHECK-NEXT: %18 = stablehlo.and %16, %17 : tensor<8x2xi1>
// CHECK-NEXT: %19 = "stablehlo.gather"(%arg0, %15) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<16x16xf32>, tensor<8x2xi32>) -> tensor<8x4xf32>
// CHECK-NEXT: %c_5 = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT: %20 = stablehlo.reduce(%18 init: %c_5) applies stablehlo.and across dimensions = [1] : (tensor<8x2xi1>, tensor<i1>) -> tensor<8xi1>
// CHECK-NEXT: %21 = stablehlo.broadcast_in_dim %20, dims = [0] : (tensor<8xi1>) -> tensor<8x4xi1>
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<8x4xf32>
// CHECK-NEXT: %22 = stablehlo.select %21, %19, %cst : tensor<8x4xi1>, tensor<8x4xf32>
// CHECK-NEXT: %23 = "stablehlo.all_reduce"(%22) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7{{\]\]}}> : tensor<2x4xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %24 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %24 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %23 : tensor<8x4xf32>
// CHECK-NEXT: }
func.func @gather_one_of_two_components_split(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x2xi32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<64x16xf32>, tensor<8x2xi32>) -> tensor<8x4xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @gather_finished_by_the_pass(
// CHECK-SAME: %arg0: tensor<4x8xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %arg1: tensor<8x2xi32>) -> tensor<8xbf16> {
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<8x2xi32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<15> : tensor<2xi32>
// CHECK-NEXT: %0 = stablehlo.broadcast_in_dim %c_0, dims = [1] : (tensor<2xi32>) -> tensor<8x2xi32>
// CHECK-NEXT: %1 = stablehlo.clamp %c, %arg1, %0 : tensor<8x2xi32>
// CHECK-NEXT: %2 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<[0, 0, 0, 0, 8, 8, 8, 8]> : tensor<8xi32>
// CHECK-NEXT: %3 = stablehlo.dynamic_slice %c_1, %2, sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT: %4 = stablehlo.reshape %3 : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT: %5 = stablehlo.convert %4 : tensor<i32>
// CHECK-NEXT: %c_2 = stablehlo.constant dense<7> : tensor<i32>
// CHECK-NEXT: %6 = stablehlo.add %5, %c_2 : tensor<i32>
// CHECK-NEXT: %7 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c_3 = stablehlo.constant dense<[0, 4, 8, 12, 0, 4, 8, 12]> : tensor<8xi32>
// CHECK-NEXT: %8 = stablehlo.dynamic_slice %c_3, %7, sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT: %9 = stablehlo.reshape %8 : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT: %10 = stablehlo.convert %9 : tensor<i32>
// CHECK-NEXT: %c_4 = stablehlo.constant dense<3> : tensor<i32>
// CHECK-NEXT: %11 = stablehlo.add %10, %c_4 : tensor<i32>
// CHECK-NEXT: %12 = stablehlo.reshape %5 : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT: %13 = stablehlo.reshape %10 : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT: %14 = stablehlo.concatenate %12, %13, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
// CHECK-NEXT: %15 = stablehlo.broadcast_in_dim %14, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<2xi32>) -> tensor<8x2xi32>
// CHECK-NEXT: %16 = stablehlo.reshape %6 : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT: %17 = stablehlo.reshape %11 : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT: %18 = stablehlo.concatenate %16, %17, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
// CHECK-NEXT: %19 = stablehlo.broadcast_in_dim %18, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<2xi32>) -> tensor<8x2xi32>
// CHECK-NEXT: %20 = stablehlo.subtract %1, %15 : tensor<8x2xi32>
// CHECK-NEXT: %21 = stablehlo.compare GE, %1, %15 : (tensor<8x2xi32>, tensor<8x2xi32>) -> tensor<8x2xi1>
// CHECK-NEXT: %22 = stablehlo.compare LE, %1, %19 : (tensor<8x2xi32>, tensor<8x2xi32>) -> tensor<8x2xi1>
// CHECK-NEXT: %23 = stablehlo.and %21, %22 : tensor<8x2xi1>
// CHECK-NEXT: %24 = "stablehlo.gather"(%arg0, %20) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xbf16>, tensor<8x2xi32>) -> tensor<8xbf16>
// CHECK-NEXT: %c_5 = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT: %25 = stablehlo.reduce(%23 init: %c_5) applies stablehlo.and across dimensions = [1] : (tensor<8x2xi1>, tensor<i1>) -> tensor<8xi1>
// CHECK-NEXT: %26 = stablehlo.broadcast_in_dim %25, dims = [0] : (tensor<8xi1>) -> tensor<8xi1>
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<8xbf16>
// CHECK-NEXT: %27 = stablehlo.select %26, %24, %cst : tensor<8xi1>, tensor<8xbf16>
// CHECK-NEXT: %28 = "stablehlo.all_reduce"(%27) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7{{\]\]}}> : tensor<1x8xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<bf16>, %arg3: tensor<bf16>):
// CHECK-NEXT: %29 = stablehlo.add %arg2, %arg3 : tensor<bf16>
// CHECK-NEXT: stablehlo.return %29 : tensor<bf16>
// CHECK-NEXT: }) : (tensor<8xbf16>) -> tensor<8xbf16>
// CHECK-NEXT: return %28 : tensor<8xbf16>
// CHECK-NEXT: }
func.func @gather_finished_by_the_pass(%arg0: tensor<16x16xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %arg1: tensor<8x2xi32>) -> tensor<8xbf16> {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<16x16xbf16>, tensor<8x2xi32>) -> tensor<8xbf16>
  return %0 : tensor<8xbf16>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @scatter_into_split_rows(
// CHECK-SAME: %arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x1xi64>, %arg2: tensor<8x16xf32>) -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<[0, 16, 32, 48, 0, 16, 32, 48]> : tensor<8xi32>
// CHECK-NEXT: %1 = stablehlo.dynamic_slice %c, %0, sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT: %2 = stablehlo.reshape %1 : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT: %3 = stablehlo.convert %2 : (tensor<i32>) -> tensor<i64>
// CHECK-NEXT: %4 = stablehlo.broadcast_in_dim %3, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<i64>) -> tensor<8x1xi64>
// CHECK-NEXT: %5 = stablehlo.subtract %arg1, %4 : tensor<8x1xi64>
// CHECK-NEXT: %6 = "stablehlo.scatter"(%arg0, %5, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
// CHECK-NEXT: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK-NEXT: stablehlo.return %arg4 : tensor<f32>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<16x16xf32>, tensor<8x1xi64>, tensor<8x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT: return %6 : tensor<16x16xf32>
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

// CHECK-LABEL: func.func @scatter_one_of_two_components_split(
// CHECK-SAME: %arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x2xi32>, %arg2: tensor<8xf32>) -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<[0, 16, 32, 48, 0, 16, 32, 48]> : tensor<8xi32>
// CHECK-NEXT: %1 = stablehlo.dynamic_slice %c_0, %0, sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT: %2 = stablehlo.reshape %1 : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT: %3 = stablehlo.convert %2 : tensor<i32>
// CHECK-NEXT: %4 = stablehlo.reshape %c : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT: %5 = stablehlo.reshape %3 : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT: %6 = stablehlo.concatenate %4, %5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
// CHECK-NEXT: %7 = stablehlo.broadcast_in_dim %6, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<2xi32>) -> tensor<8x2xi32>
// CHECK-NEXT: %8 = stablehlo.subtract %arg1, %7 : tensor<8x2xi32>
// CHECK-NEXT: %9 = "stablehlo.scatter"(%arg0, %8, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 1>, unique_indices = false}> ({
// CHECK-NEXT: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK-NEXT: %10 = stablehlo.add %arg3, %arg4 : tensor<f32>
// CHECK-NEXT: stablehlo.return %10 : tensor<f32>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<16x16xf32>, tensor<8x2xi32>, tensor<8xf32>) -> tensor<16x16xf32>
// CHECK-NEXT: return %9 : tensor<16x16xf32>
// CHECK-NEXT: }
func.func @scatter_one_of_two_components_split(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x2xi32>, %arg2: tensor<8xf32>) -> (tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<64x16xf32>, tensor<8x2xi32>, tensor<8xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @scatter_split_updates_and_rows(
// CHECK-SAME: %arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<4x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg2: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
// CHECK-NEXT: %1 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<[true, true, true, true, false, false, false, false]> : tensor<8xi1>
// CHECK-NEXT: %2 = stablehlo.dynamic_slice %c, %1, sizes = [1] : (tensor<8xi1>, tensor<ui32>) -> tensor<1xi1>
// CHECK-NEXT: %3 = stablehlo.reshape %2 : (tensor<1xi1>) -> tensor<i1>
// CHECK-NEXT: %4 = stablehlo.select %3, %arg0, %0 : tensor<i1>, tensor<16x16xf32>
// CHECK-NEXT: %5 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<[0, 16, 32, 48, 0, 16, 32, 48]> : tensor<8xi32>
// CHECK-NEXT: %6 = stablehlo.dynamic_slice %c_0, %5, sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT: %7 = stablehlo.reshape %6 : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT: %8 = stablehlo.convert %7 : tensor<i32>
// CHECK-NEXT: %9 = stablehlo.broadcast_in_dim %8, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<i32>) -> tensor<4x1xi32>
// CHECK-NEXT: %10 = stablehlo.subtract %arg1, %9 : tensor<4x1xi32>
// CHECK-NEXT: %11 = "stablehlo.scatter"(%4, %10, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
// CHECK-NEXT: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK-NEXT: %13 = stablehlo.add %arg3, %arg4 : tensor<f32>
// CHECK-NEXT: stablehlo.return %13 : tensor<f32>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<16x16xf32>, tensor<4x1xi32>, tensor<4x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT: %12 = "stablehlo.all_reduce"(%11) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7{{\]\]}}> : tensor<4x2xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK-NEXT: %13 = stablehlo.add %arg3, %arg4 : tensor<f32>
// CHECK-NEXT: stablehlo.return %13 : tensor<f32>
// CHECK-NEXT: }) : (tensor<16x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT: return %12 : tensor<16x16xf32>
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

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @scatter_finished_by_the_pass(
// CHECK-SAME: %arg0: tensor<64x16xi32>, %arg1: tensor<1x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}, %arg2: tensor<1x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<64x16xi32> {
// CHECK-NEXT: %c = stablehlo.constant dense<2147483647> : tensor<i32>
// CHECK-NEXT: %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<64x16xi32>
// CHECK-NEXT: %1 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<[true, false, false, false, false, false, false, false]> : tensor<8xi1>
// CHECK-NEXT: %2 = stablehlo.dynamic_slice %c_0, %1, sizes = [1] : (tensor<8xi1>, tensor<ui32>) -> tensor<1xi1>
// CHECK-NEXT: %3 = stablehlo.reshape %2 : (tensor<1xi1>) -> tensor<i1>
// CHECK-NEXT: %4 = stablehlo.select %3, %arg0, %0 : tensor<i1>, tensor<64x16xi32>
// CHECK-NEXT: %5 = "stablehlo.scatter"(%4, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
// CHECK-NEXT: ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
// CHECK-NEXT: %7 = stablehlo.minimum %arg3, %arg4 : tensor<i32>
// CHECK-NEXT: stablehlo.return %7 : tensor<i32>
// CHECK-NEXT: }) : (tensor<64x16xi32>, tensor<1x1xi32>, tensor<1x16xi32>) -> tensor<64x16xi32>
// CHECK-NEXT: %6 = "stablehlo.all_reduce"(%5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7{{\]\]}}> : tensor<1x8xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
// CHECK-NEXT: %7 = stablehlo.minimum %arg3, %arg4 : tensor<i32>
// CHECK-NEXT: stablehlo.return %7 : tensor<i32>
// CHECK-NEXT: }) : (tensor<64x16xi32>) -> tensor<64x16xi32>
// CHECK-NEXT: return %6 : tensor<64x16xi32>
// CHECK-NEXT: }
func.func @scatter_finished_by_the_pass(%arg0: tensor<64x16xi32>, %arg1: tensor<8x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}, %arg2: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<64x16xi32> {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.minimum %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<64x16xi32>, tensor<8x1xi32>, tensor<8x16xi32>) -> tensor<64x16xi32>
  return %0 : tensor<64x16xi32>
}
