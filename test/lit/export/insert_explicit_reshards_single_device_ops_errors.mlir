// RUN: pysdy-opt %s -sdy-insert-explicit-reshards -verify-diagnostics
// REQUIRES: reshards_around_single_device_ops

// From jax 0.11, an op whose tensor results are on maximal meshes of two devices is an error (jaxlib's message).

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal = <[], device_ids=[0]>
sdy.mesh @maximal_1 = <[], device_ids=[1]>

func.func @results_on_two_devices(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  // expected-error@+1 {{'stablehlo.custom_call' op has conflicting single-device result shardings}}
  %0:2 = stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_1, []>, <@maximal, []>]>} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}
