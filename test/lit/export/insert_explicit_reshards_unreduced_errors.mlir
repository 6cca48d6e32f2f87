// RUN: pysdy-opt %s -split-input-file -sdy-insert-explicit-reshards -verify-diagnostics

// Collectives toward unreduced axes that the verifier after the pass rejects, as it rejects jaxlib's.

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

// The reshard before sharded_to_unreduced keeps the value's replicated axes, here also a target dimension's.
func.func @reshard_keeping_a_replicated_axis_it_shards(%arg0: tensor<4x6xf32>) -> (tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"z"}], unreduced={"y"}>}) {
  // expected-error@+1 {{'sdy.reshard' op duplicate axis ref: "z"}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {?}], replicated={"z"}>]>} : tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// replicated_to_unreduced takes the target's open dimensions, which its closed input does not have.
func.func @replicated_to_unreduced_with_open_target_dims(%arg0: tensor<12x24xf32>) -> tensor<12x24xf32> {
  // expected-error@+1 {{'sdy.replicated_to_unreduced' op input and output must share the same dimension shardings}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<12x24xf32>
  %1 = sdy.reshard %0 <@mesh, [{?}, {?}], unreduced={"x"}> : tensor<12x24xf32>
  return %1 : tensor<12x24xf32>
}
