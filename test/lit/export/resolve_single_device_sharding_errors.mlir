// REQUIRES: resolve_single_device_sharding
// RUN: pysdy-opt %s -split-input-file -sdy-resolve-single-device-sharding -verify-diagnostics

// Where jaxlib's pass aborts (results on two devices, a single-device result beside a sharded one) or makes IR
// that does not verify (a dynamic or tuple result), pysdy refuses at the op before changing anything.

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
sdy.mesh @maximal2 = <[], device_ids=[2]>

func.func @two_devices(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error@+1 {{sdy-resolve-single-device-sharding: 'stablehlo.custom_call' has results on two devices (1 and 2)}}
  %0:2 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal2, []>]>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>

func.func @sharded_other_result(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error@+1 {{sdy-resolve-single-device-sharding: 'stablehlo.custom_call' has a result on a single device and a sharded result}}
  %0:2 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@mesh, [{"x"}]>]>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>

func.func @dynamic_result(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error@+1 {{sdy-resolve-single-device-sharding: 'stablehlo.custom_call' has a dynamically shaped result (tensor<?xf32>), which no zero constant fills}}
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>

func.func @tuple_result(%arg0: tensor<4xf32>) -> (tuple<tensor<4xf32>>, tensor<4xf32>) {
  // expected-error@+1 {{sdy-resolve-single-device-sharding: 'stablehlo.custom_call' has a result of type tuple<tensor<4xf32>>, which a stablehlo.if cannot return}}
  %0:2 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal, []>]>} : (tensor<4xf32>) -> (tuple<tensor<4xf32>>, tensor<4xf32>)
  return %0#0, %0#1 : tuple<tensor<4xf32>>, tensor<4xf32>
}
