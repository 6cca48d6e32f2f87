// REQUIRES: resolve_single_device_sharding, !single_device_guard_compares_ui32
// RUN: pysdy-opt %s -split-input-file -sdy-resolve-single-device-sharding | filecheck %s

// jax 0.11 converts the partition (or replica) id to i64 and compares it with an i64 constant; the rest is as in
// resolve_single_device_sharding.mlir.
// Expected output: jaxlib 0.11.2's C++ pass on each input.

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal = <[], device_ids=[3]>

// CHECK-LABEL: func.func @custom_call_between_reshards(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.convert %0 : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT: %c = stablehlo.constant dense<3> : tensor<i64>
// CHECK-NEXT: %2 = stablehlo.compare EQ, %1, %c : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT: %3 = "stablehlo.if"(%2) ({
// CHECK-NEXT: %6 = stablehlo.custom_call @foo(%arg0) {has_side_effect = true} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: stablehlo.return %6 : tensor<8x8xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: stablehlo.return %cst : tensor<8x8xf32>
// CHECK-NEXT: }) : (tensor<i1>) -> tensor<8x8xf32>
// CHECK-NEXT: %4 = sdy.all_reduce {"x", "y"} %3 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %5 = stablehlo.add %4, %4 : tensor<8x8xf32>
// CHECK-NEXT: return %5 : tensor<8x8xf32>
// CHECK-NEXT: }
func.func @custom_call_between_reshards(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@maximal, []> : tensor<8x8xf32>
  %1 = stablehlo.custom_call @foo(%0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x8xf32>
  %3 = stablehlo.add %2, %2 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
