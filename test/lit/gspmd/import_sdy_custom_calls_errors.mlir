// RUN: pysdy-opt %s -split-input-file -xla-sdy-import-sdy-custom-calls -verify-diagnostics

func.func @no_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{expected CustomCallOp with a sharding attribute}}
  %0 = stablehlo.custom_call @Sharding(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>
func.func @bad_backend_config(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{cannot parse the Sharding custom call's backend_config "unspecified_dims=0"}}
  %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=0", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @group_without_id(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{expected CustomCallOp with a sharding group id.}}
  stablehlo.custom_call @xla.sdy.ShardingGroup(%arg0) {has_side_effect = true} : (tensor<8xf32>) -> ()
  return %arg0 : tensor<8xf32>
}
