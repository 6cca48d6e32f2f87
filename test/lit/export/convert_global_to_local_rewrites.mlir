// RUN: pysdy-opt %s -split-input-file '--pass-pipeline=builtin.module(sdy-convert-global-to-local{enable-rgv3=false})' | filecheck %s
// REQUIRES: convert_global_to_local_slice_offsets_i32

// Ops the pass rewrites rather than retypes, as jax 0.12's Shardy does (the expected lines are its output): an iota
// split along its dimension adds the device's offset; slices and dynamic slices of split dimensions taken whole
// slice the local part; a manual computation's body is inlined; a loop's regions take the local types; a
// reduce-scatter over one dimension is one stablehlo.reduce_scatter, over several an all-reduce and a dynamic slice.

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @iota_split_along_and_across(
// CHECK-SAME: %arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
// CHECK-NEXT: %0 = stablehlo.iota dim = 1 : tensor<4x4xf32>
// CHECK-NEXT: %1 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<[0, 4, 8, 12, 0, 4, 8, 12]> : tensor<8xi32>
// CHECK-NEXT: %2 = stablehlo.dynamic_slice %c, %1, sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT: %3 = stablehlo.reshape %2 : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT: %4 = stablehlo.convert %3 : (tensor<i32>) -> tensor<f32>
// CHECK-NEXT: %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
// CHECK-NEXT: %6 = stablehlo.add %0, %5 : tensor<4x4xf32>
// CHECK-NEXT: %7 = stablehlo.iota dim = 0 : tensor<8x4xf32>
// CHECK-NEXT: %8 = stablehlo.add %6, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x4xf32>
// CHECK-NEXT: return %8 : tensor<4x4xf32>
// CHECK-NEXT: }
func.func @iota_split_along_and_across(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.iota dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  %1 = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x16xf32>
  %2 = stablehlo.add %0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @slices_taking_split_dims_whole(
// CHECK-SAME: %arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<i32>) -> (tensor<4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<2x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
// CHECK-NEXT: %0 = stablehlo.slice %arg0 [2:6, 0:6:2] : (tensor<8x6xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %1 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [2, 6] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x6xf32>
// CHECK-NEXT: return %0, %1 : tensor<4x3xf32>, tensor<2x6xf32>
// CHECK-NEXT: }
func.func @slices_taking_split_dims_whole(%arg0: tensor<8x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<i32>) -> (tensor<4x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<2x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = stablehlo.slice %arg0 [2:6, 0:24:2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x24xf32>) -> tensor<4x12xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [2, 24] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x24xf32>, tensor<i32>, tensor<i32>) -> tensor<2x24xf32>
  return %0, %1 : tensor<4x12xf32>, tensor<2x24xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @manual_computation_inlined(
// CHECK-SAME: %arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
// CHECK-NEXT: %0 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<4x4xf32>
// CHECK-NEXT: %1 = stablehlo.cosine %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x4xf32>
// CHECK-NEXT: return %1 : tensor<4x4xf32>
// CHECK-NEXT: }
func.func @manual_computation_inlined(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
    %1 = stablehlo.sine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<4x16xf32>
    sdy.return %1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.cosine %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @loop_over_split_values(
// CHECK-SAME: %arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<4x4xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{"x"}, {"y"}]>]>}
// CHECK-NEXT: cond {
// CHECK-NEXT: %c_1 = stablehlo.constant dense<3> : tensor<i32>
// CHECK-NEXT: %1 = stablehlo.compare LT, %iterArg, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %1 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %c_1 = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT: %1 = stablehlo.add %iterArg, %c_1 : tensor<i32>
// CHECK-NEXT: %2 = stablehlo.sine %iterArg_0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x4xf32>
// CHECK-NEXT: stablehlo.return %1, %2 : tensor<i32>, tensor<4x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %0#1 : tensor<4x4xf32>
// CHECK-NEXT: }
func.func @loop_over_split_values(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c0, %v = %arg0) : tensor<i32>, tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{"x"}, {"y"}]>]>}
  cond {
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %i, %c1 : tensor<i32>
    %2 = stablehlo.sine %v {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
    stablehlo.return %1, %2 : tensor<i32>, tensor<8x16xf32>
  }
  return %0#1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @reduce_scatters(
// CHECK-SAME: %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg2: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}, %arg3: tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
// CHECK-NEXT: %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>} : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %1 = "stablehlo.reduce_scatter"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7{{\]\]}}> : tensor<2x4xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
// CHECK-NEXT: %11 = stablehlo.add %arg4, %arg5 : tensor<f32>
// CHECK-NEXT: stablehlo.return %11 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x8xf32>) -> tensor<8x2xf32>
// CHECK-NEXT: %2 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x", "y"}>]>} : (tensor<8x2xf32>, tensor<2x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %3 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7{{\]\]}}> : tensor<1x8xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
// CHECK-NEXT: %11 = stablehlo.add %arg4, %arg5 : tensor<f32>
// CHECK-NEXT: stablehlo.return %11 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %4 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<[0, 0, 0, 0, 4, 4, 4, 4]> : tensor<8xi32>
// CHECK-NEXT: %5 = stablehlo.dynamic_slice %c, %4, sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT: %6 = stablehlo.reshape %5 : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT: %7 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<[0, 2, 4, 6, 0, 2, 4, 6]> : tensor<8xi32>
// CHECK-NEXT: %8 = stablehlo.dynamic_slice %c_0, %7, sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT: %9 = stablehlo.reshape %8 : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT: %10 = stablehlo.dynamic_slice %3, %6, %9, sizes = [4, 2] : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK-NEXT: return %1, %10 : tensor<8x2xf32>, tensor<4x2xf32>
// CHECK-NEXT: }
func.func @reduce_scatters(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}, %arg3: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %1 = sdy.reduce_scatter [{}, {"y"}] %0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %2 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x", "y"}>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %3 = sdy.reduce_scatter [{"x"}, {"y"}] %2 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
  return %1, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}
