// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-export-manual-reduction-collectives | filecheck %s
// REQUIRES: unreduced_reduction_kinds

// Reductions of max- and min-reduced unreduced axes (jax 0.11 and later): the StableHLO collectives reduce with
// stablehlo.maximum and stablehlo.minimum. Expected output: what XLA exports these inputs to
// (test/py/gspmd/test_export_manual_reduction_collectives.py compares the HLO both become).

// An all-reduce of max-reduced unreduced axes reduces with stablehlo.maximum.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @all_reduce_max(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced=max{"x"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y"}, {}], unreduced=max{"x"}>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<2x8xf32>) {
// CHECK-NEXT: %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: sdy.return %1 : tensor<2x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_reduce_max(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced=max{"x"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = sdy.all_reduce max {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Of min-reduced ones with stablehlo.minimum, here over both axes of the mesh.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @all_reduce_min(%arg0: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced=min{"x", "y"}>}) -> (tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}], unreduced=min{"x", "y"}>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<8x8xi32>) {
// CHECK-NEXT: %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
// CHECK-NEXT: %2 = stablehlo.minimum %arg2, %arg3 : tensor<i32>
// CHECK-NEXT: stablehlo.return %2 : tensor<i32>
// CHECK-NEXT: }) : (tensor<8x8xi32>) -> tensor<8x8xi32>
// CHECK-NEXT: sdy.return %1 : tensor<8x8xi32>
// CHECK-NEXT: } : (tensor<8x8xi32>) -> tensor<8x8xi32>
// CHECK-NEXT: return %0 : tensor<8x8xi32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_reduce_min(%arg0: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced=min{"x", "y"}>}) -> (tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.all_reduce min {"x", "y"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xi32>
  return %0 : tensor<8x8xi32>
}

// -----

// A reduce-scatter of max-reduced axes: each of its stablehlo.reduce_scatter ops takes the maximum.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @reduce_scatter_max(%arg0: tensor<8x8xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced=max{"x", "y"}>}) -> (tensor<8x8xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}], unreduced=max{"x", "y"}>] out_shardings=[<@mesh, [{"y"}, {"x"}]>] manual_axes={"x", "y"} (%arg1: tensor<8x8xbf16>) {
// CHECK-NEXT: %1 = "stablehlo.reduce_scatter"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<bf16>, %arg3: tensor<bf16>):
// CHECK-NEXT: %3 = stablehlo.maximum %arg2, %arg3 : tensor<bf16>
// CHECK-NEXT: stablehlo.return %3 : tensor<bf16>
// CHECK-NEXT: }) : (tensor<8x8xbf16>) -> tensor<2x8xbf16>
// CHECK-NEXT: %2 = "stablehlo.reduce_scatter"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<bf16>, %arg3: tensor<bf16>):
// CHECK-NEXT: %3 = stablehlo.maximum %arg2, %arg3 : tensor<bf16>
// CHECK-NEXT: stablehlo.return %3 : tensor<bf16>
// CHECK-NEXT: }) : (tensor<2x8xbf16>) -> tensor<2x4xbf16>
// CHECK-NEXT: sdy.return %2 : tensor<2x4xbf16>
// CHECK-NEXT: } : (tensor<8x8xbf16>) -> tensor<8x8xbf16>
// CHECK-NEXT: return %0 : tensor<8x8xbf16>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @reduce_scatter_max(%arg0: tensor<8x8xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced=max{"x", "y"}>}) -> (tensor<8x8xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %0 = sdy.reduce_scatter max [{"y"}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x8xbf16>
  return %0 : tensor<8x8xbf16>
}
