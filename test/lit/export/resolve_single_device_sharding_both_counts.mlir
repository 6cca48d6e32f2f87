// REQUIRES: resolve_single_device_sharding
// RUN: pysdy-opt %s -sdy-resolve-single-device-sharding='replica-count=2 partition-count=2' -verify-diagnostics

// jaxlib's Shardy aborts when neither count is 1 (it picks no device id): pysdy refuses at the first op to resolve.

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>

func.func @both_counts(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{sdy-resolve-single-device-sharding: 'stablehlo.custom_call' cannot pick a device id: replica-count and partition-count both differ from 1}}
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
