// REQUIRES: resolve_single_device_sharding, !single_device_zeros_complex
// RUN: pysdy-opt %s -split-input-file -sdy-resolve-single-device-sharding -verify-diagnostics

// jax 0.11's C++ pass crashes making the zeros of a complex result for the other devices (a segmentation fault on
// each input here); pysdy refuses at the op instead.

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>

func.func @complex_f32_result(%arg0: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  // expected-error@+1 {{sdy-resolve-single-device-sharding: 'stablehlo.custom_call' has a complex result (tensor<2xcomplex<f32>>): this jaxlib's Shardy crashes making its zeros}}
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @maximal = <[], device_ids=[0]>

func.func @complex_f64_and_real_results(%arg0: tensor<2x3xcomplex<f64>>) -> (tensor<2x3xcomplex<f64>>, tensor<i32>) {
  // expected-error@+1 {{sdy-resolve-single-device-sharding: 'stablehlo.custom_call' has a complex result (tensor<2x3xcomplex<f64>>): this jaxlib's Shardy crashes making its zeros}}
  %0:2 = stablehlo.custom_call @foo(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal, []>]>} : (tensor<2x3xcomplex<f64>>) -> (tensor<2x3xcomplex<f64>>, tensor<i32>)
  return %0#0, %0#1 : tensor<2x3xcomplex<f64>>, tensor<i32>
}
