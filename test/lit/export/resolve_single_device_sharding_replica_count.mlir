// REQUIRES: single_device_guard_compares_ui32
// RUN: pysdy-opt %s -sdy-resolve-single-device-sharding='replica-count=2' | filecheck %s

// With a replica count other than 1 (and a partition count of 1) the guard compares the replica id.
// Expected output: jaxlib 0.12.0.1's C++ pass.

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>

// CHECK-LABEL: func.func @replica_id(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: %0 = stablehlo.replica_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<1> : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.compare EQ, %0, %c : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// CHECK-NEXT: %2 = "stablehlo.if"(%1) ({
// CHECK-NEXT: %4 = stablehlo.custom_call @foo(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: stablehlo.return %4 : tensor<4xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: stablehlo.return %cst : tensor<4xf32>
// CHECK-NEXT: }) : (tensor<i1>) -> tensor<4xf32>
// CHECK-NEXT: %3 = sdy.all_reduce {"x"} %2 out_sharding=<@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT: return %3 : tensor<4xf32>
// CHECK-NEXT: }
func.func @replica_id(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
