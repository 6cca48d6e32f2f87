// RUN: pysdy-opt %s -sdy-convert-global-to-local | filecheck %s
// REQUIRES: !convert_global_to_local_slice_offsets_i32

// Before jax 0.12, an all-slice reads a device's offsets from i64 tables indexed by the partition id converted to
// i64 (here on a mesh with device ids: the table is by device id).

// CHECK: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
// CHECK-NEXT: func.func @slice_on_permuted_devices(%arg0: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<2x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.convert %0 : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT: %c = stablehlo.constant dense<[6, 4, 2, 0, 6, 4, 2, 0]> : tensor<8xi64>
// CHECK-NEXT: %2 = stablehlo.dynamic_slice %c, %1, sizes = [1] : (tensor<8xi64>, tensor<i64>) -> tensor<1xi64>
// CHECK-NEXT: %3 = stablehlo.reshape %2 : (tensor<1xi64>) -> tensor<i64>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT: %4 = stablehlo.dynamic_slice %arg0, %3, %c_0, sizes = [2, 16] : (tensor<8x16xi32>, tensor<i64>, tensor<i64>) -> tensor<2x16xi32>
// CHECK-NEXT: return %4 : tensor<2x16xi32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>

func.func @slice_on_permuted_devices(%arg0: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = sdy.all_slice [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x16xi32>
  return %0 : tensor<8x16xi32>
}
