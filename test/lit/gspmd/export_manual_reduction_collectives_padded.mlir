// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-export-manual-reduction-collectives | filecheck %s
// REQUIRES: xla_export_pads_non_divisible_unreduced_collectives, unreduced_reduction_kinds

// From jax 0.11, XLA exports a collective whose shardings do not divide a dimension by padding the operand and slicing
// the result. Expected output: what XLA exports these inputs to (test_export_manual_reduction_collectives.py compares
// the HLO both become).

// An all-reduce of a dimension its shardings do not divide (6 rows on 4 devices): the operand is padded with zeros to
// 8 rows, carrying its sharding, and the result sliced back to 6, carrying the out sharding.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @all_reduce_padded(%arg0: tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>}) -> (tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %0 = stablehlo.pad %arg0, %cst, low = [0, 0], high = [2, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}], unreduced={"x"}>]>} : (tensor<6x5xf32>, tensor<f32>) -> tensor<8x5xf32>
// CHECK-NEXT: %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"y"}, {}], unreduced={"x"}>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<2x5xf32>) {
// CHECK-NEXT: %3 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %4 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %4 : tensor<f32>
// CHECK-NEXT: }) : (tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT: sdy.return %3 : tensor<2x5xf32>
// CHECK-NEXT: } : (tensor<8x5xf32>) -> tensor<8x5xf32>
// CHECK-NEXT: %2 = stablehlo.slice %1 [0:6, 0:5] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x5xf32>) -> tensor<6x5xf32>
// CHECK-NEXT: return %2 : tensor<6x5xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_reduce_padded(%arg0: tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>}) -> (tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<6x5xf32>
  return %0 : tensor<6x5xf32>
}

// -----

// A max all-reduce pads with -inf.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @all_reduce_max_padded(%arg0: tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced=max{"x"}>}) -> (tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
// CHECK-NEXT: %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT: %0 = stablehlo.pad %arg0, %cst, low = [0, 0], high = [2, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}], unreduced=max{"x"}>]>} : (tensor<6x5xf32>, tensor<f32>) -> tensor<8x5xf32>
// CHECK-NEXT: %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"y"}, {}], unreduced=max{"x"}>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<2x5xf32>) {
// CHECK-NEXT: %3 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %4 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %4 : tensor<f32>
// CHECK-NEXT: }) : (tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT: sdy.return %3 : tensor<2x5xf32>
// CHECK-NEXT: } : (tensor<8x5xf32>) -> tensor<8x5xf32>
// CHECK-NEXT: %2 = stablehlo.slice %1 [0:6, 0:5] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x5xf32>) -> tensor<6x5xf32>
// CHECK-NEXT: return %2 : tensor<6x5xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_reduce_max_padded(%arg0: tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced=max{"x"}>}) -> (tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = sdy.all_reduce max {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<6x5xf32>
  return %0 : tensor<6x5xf32>
}

// -----

// A min all-reduce of unsigned integers pads with their greatest value.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @all_reduce_min_padded(%arg0: tensor<6x5xui8> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced=min{"x"}>}) -> (tensor<6x5xui8> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
// CHECK-NEXT: %c = stablehlo.constant dense<255> : tensor<ui8>
// CHECK-NEXT: %0 = stablehlo.pad %arg0, %c, low = [0, 0], high = [2, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}], unreduced=min{"x"}>]>} : (tensor<6x5xui8>, tensor<ui8>) -> tensor<8x5xui8>
// CHECK-NEXT: %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"y"}, {}], unreduced=min{"x"}>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<2x5xui8>) {
// CHECK-NEXT: %3 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<ui8>, %arg3: tensor<ui8>):
// CHECK-NEXT: %4 = stablehlo.minimum %arg2, %arg3 : tensor<ui8>
// CHECK-NEXT: stablehlo.return %4 : tensor<ui8>
// CHECK-NEXT: }) : (tensor<2x5xui8>) -> tensor<2x5xui8>
// CHECK-NEXT: sdy.return %3 : tensor<2x5xui8>
// CHECK-NEXT: } : (tensor<8x5xui8>) -> tensor<8x5xui8>
// CHECK-NEXT: %2 = stablehlo.slice %1 [0:6, 0:5] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x5xui8>) -> tensor<6x5xui8>
// CHECK-NEXT: return %2 : tensor<6x5xui8>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_reduce_min_padded(%arg0: tensor<6x5xui8> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced=min{"x"}>}) -> (tensor<6x5xui8> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = sdy.all_reduce min {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<6x5xui8>
  return %0 : tensor<6x5xui8>
}

// -----

// A reduce-scatter pads each dimension to a multiple of the shard counts of both shardings (6x3 to 8x4).
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @reduce_scatter_padded(%arg0: tensor<6x3xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced=max{"x"}>}) -> (tensor<6x3xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
// CHECK-NEXT: %c = stablehlo.constant dense<-2147483648> : tensor<i32>
// CHECK-NEXT: %0 = stablehlo.pad %arg0, %c, low = [0, 0], high = [2, 1], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}], unreduced=max{"x"}>]>} : (tensor<6x3xi32>, tensor<i32>) -> tensor<8x4xi32>
// CHECK-NEXT: %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"y"}, {}], unreduced=max{"x"}>] out_shardings=[<@mesh, [{"y"}, {"x"}]>] manual_axes={"x", "y"} (%arg1: tensor<2x4xi32>) {
// CHECK-NEXT: %3 = "stablehlo.reduce_scatter"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
// CHECK-NEXT: %4 = stablehlo.maximum %arg2, %arg3 : tensor<i32>
// CHECK-NEXT: stablehlo.return %4 : tensor<i32>
// CHECK-NEXT: }) : (tensor<2x4xi32>) -> tensor<2x2xi32>
// CHECK-NEXT: sdy.return %3 : tensor<2x2xi32>
// CHECK-NEXT: } : (tensor<8x4xi32>) -> tensor<8x4xi32>
// CHECK-NEXT: %2 = stablehlo.slice %1 [0:6, 0:3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : (tensor<8x4xi32>) -> tensor<6x3xi32>
// CHECK-NEXT: return %2 : tensor<6x3xi32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @reduce_scatter_padded(%arg0: tensor<6x3xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced=max{"x"}>}) -> (tensor<6x3xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %0 = sdy.reduce_scatter max [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<6x3xi32>
  return %0 : tensor<6x3xi32>
}

// -----

// Sharded to unreduced pads with zeros.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @sharded_to_unreduced_padded(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %0 = stablehlo.pad %arg0, %cst, low = [0, 0], high = [2, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : (tensor<6x8xf32>, tensor<f32>) -> tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}], unreduced={"y"}>] manual_axes={"x", "y"} (%arg1: tensor<1x8xf32>) {
// CHECK-NEXT: %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %3 = stablehlo.broadcast %cst_0, sizes = [4, 8] : (tensor<f32>) -> tensor<4x8xf32>
// CHECK-NEXT: %4 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %5 = stablehlo.convert %4 : (tensor<ui32>) -> tensor<i32>
// CHECK-NEXT: %c = stablehlo.constant dense<4> : tensor<i32>
// CHECK-NEXT: %6 = stablehlo.remainder %5, %c : tensor<i32>
// CHECK-NEXT: %7 = stablehlo.divide %5, %c : tensor<i32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %8 = stablehlo.remainder %7, %c_1 : tensor<i32>
// CHECK-NEXT: %9 = stablehlo.divide %7, %c_1 : tensor<i32>
// CHECK-NEXT: %c_2 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %c_3 = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT: %10 = stablehlo.multiply %6, %c_3 : tensor<i32>
// CHECK-NEXT: %11 = stablehlo.dynamic_update_slice %3, %arg1, %10, %c_2 : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
// CHECK-NEXT: sdy.return %11 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %2 = stablehlo.slice %1 [0:6, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<8x8xf32>) -> tensor<6x8xf32>
// CHECK-NEXT: return %2 : tensor<6x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @sharded_to_unreduced_padded(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) {
  %0 = sdy.sharded_to_unreduced [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// -----

// So does replicated to unreduced.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @replicated_to_unreduced_padded(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>}) {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %0 = stablehlo.pad %arg0, %cst, low = [0, 0], high = [2, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<6x8xf32>, tensor<f32>) -> tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{"y"}, {}], unreduced={"x"}>] manual_axes={"x", "y"} (%arg1: tensor<2x8xf32>) {
// CHECK-NEXT: %3 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
// CHECK-NEXT: %c = stablehlo.constant dense<4> : tensor<i32>
// CHECK-NEXT: %5 = stablehlo.remainder %4, %c : tensor<i32>
// CHECK-NEXT: %6 = stablehlo.divide %4, %c : tensor<i32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %7 = stablehlo.remainder %6, %c_0 : tensor<i32>
// CHECK-NEXT: %8 = stablehlo.divide %6, %c_0 : tensor<i32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %9 = stablehlo.compare EQ, %7, %c_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %10 = stablehlo.broadcast %cst_2, sizes = [2, 8] : (tensor<f32>) -> tensor<2x8xf32>
// CHECK-NEXT: %11 = stablehlo.select %9, %arg1, %10 : tensor<i1>, tensor<2x8xf32>
// CHECK-NEXT: sdy.return %11 : tensor<2x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %2 = stablehlo.slice %1 [0:6, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}], unreduced={"x"}>]>} : (tensor<8x8xf32>) -> tensor<6x8xf32>
// CHECK-NEXT: return %2 : tensor<6x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @replicated_to_unreduced_padded(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>}) {
  %0 = sdy.replicated_to_unreduced {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}], unreduced={"x"}> : tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}
