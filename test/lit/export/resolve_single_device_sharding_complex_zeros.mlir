// REQUIRES: single_device_zeros_complex
// RUN: pysdy-opt %s -split-input-file -sdy-resolve-single-device-sharding | filecheck %s

// From jax 0.12 the other devices return complex zeros for a complex result of an op on one device (jax 0.11's
// C++ crashes there).
// Expected output: jaxlib 0.12.0.1's C++ pass on each input.

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>

// CHECK-LABEL: func.func @complex_f32_result(%arg0: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<1> : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.compare EQ, %0, %c : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// CHECK-NEXT: %2 = "stablehlo.if"(%1) ({
// CHECK-NEXT: %4 = stablehlo.custom_call @foo(%arg0) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
// CHECK-NEXT: stablehlo.return %4 : tensor<2xcomplex<f32>>
// CHECK-NEXT: }, {
// CHECK-NEXT: %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2xcomplex<f32>>
// CHECK-NEXT: stablehlo.return %cst : tensor<2xcomplex<f32>>
// CHECK-NEXT: }) : (tensor<i1>) -> tensor<2xcomplex<f32>>
// CHECK-NEXT: %3 = sdy.all_reduce {"x"} %2 out_sharding=<@mesh, [{}]> : tensor<2xcomplex<f32>>
// CHECK-NEXT: return %3 : tensor<2xcomplex<f32>>
// CHECK-NEXT: }
func.func @complex_f32_result(%arg0: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @maximal = <[], device_ids=[0]>

// CHECK-LABEL: func.func @complex_f64_and_real_results(%arg0: tensor<2x3xcomplex<f64>>) -> (tensor<2x3xcomplex<f64>>, tensor<i32>) {
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.compare EQ, %0, %c : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// CHECK-NEXT: %2:2 = "stablehlo.if"(%1) ({
// CHECK-NEXT: %5:2 = stablehlo.custom_call @foo(%arg0) {has_side_effect = true} : (tensor<2x3xcomplex<f64>>) -> (tensor<2x3xcomplex<f64>>, tensor<i32>)
// CHECK-NEXT: stablehlo.return %5#0, %5#1 : tensor<2x3xcomplex<f64>>, tensor<i32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2x3xcomplex<f64>>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: stablehlo.return %cst, %c_0 : tensor<2x3xcomplex<f64>>, tensor<i32>
// CHECK-NEXT: }) : (tensor<i1>) -> (tensor<2x3xcomplex<f64>>, tensor<i32>)
// CHECK-NEXT: %3 = sdy.all_reduce {"x", "y"} %2#0 out_sharding=<@mesh, [{}, {}]> : tensor<2x3xcomplex<f64>>
// CHECK-NEXT: %4 = sdy.all_reduce {"x", "y"} %2#1 out_sharding=<@mesh, []> : tensor<i32>
// CHECK-NEXT: return %3, %4 : tensor<2x3xcomplex<f64>>, tensor<i32>
// CHECK-NEXT: }
func.func @complex_f64_and_real_results(%arg0: tensor<2x3xcomplex<f64>>) -> (tensor<2x3xcomplex<f64>>, tensor<i32>) {
  %0:2 = stablehlo.custom_call @foo(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal, []>]>} : (tensor<2x3xcomplex<f64>>) -> (tensor<2x3xcomplex<f64>>, tensor<i32>)
  return %0#0, %0#1 : tensor<2x3xcomplex<f64>>, tensor<i32>
}
