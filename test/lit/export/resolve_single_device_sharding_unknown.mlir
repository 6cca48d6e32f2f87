// RUN: not pysdy-opt %s --pass-pipeline="builtin.module(func.func(sdy-resolve-single-device-sharding))" 2>&1 | filecheck %s
// REQUIRES: !resolve_single_device_sharding

// Before jax 0.11 there is no sdy-resolve-single-device-sharding (jaxlib 0.10.2's pass manager does not know it).

// CHECK: unknown pass 'sdy-resolve-single-device-sharding'
sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @custom_call_on_one_device(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
