// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-export-manual-reduction-collectives -verify-diagnostics
// REQUIRES: !xla_export_pads_non_divisible_unreduced_collectives

// Before jax 0.11, XLA's export aborts on a dimension the shardings do not divide; pysdy refuses the op.

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_reduce(%arg0: tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>}) -> tensor<6x5xf32> {
  // expected-error@+1 {{pysdy cannot export 'sdy.all_reduce' of a dimension its shardings do not divide: XLA's export aborts on it (it pads from jax 0.11)}}
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<6x5xf32>
  return %0 : tensor<6x5xf32>
}

// -----

// Only the result's sharding does not divide the dimension.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @reduce_scatter(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y"}>}) -> tensor<6x8xf32> {
  // expected-error@+1 {{pysdy cannot export 'sdy.reduce_scatter' of a dimension its shardings do not divide: XLA's export aborts on it (it pads from jax 0.11)}}
  %0 = sdy.reduce_scatter [{"y"}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @sharded_to_unreduced(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<6x8xf32> {
  // expected-error@+1 {{pysdy cannot export 'sdy.sharded_to_unreduced' of a dimension its shardings do not divide: XLA's export aborts on it (it pads from jax 0.11)}}
  %0 = sdy.sharded_to_unreduced [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @replicated_to_unreduced(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<6x8xf32> {
  // expected-error@+1 {{pysdy cannot export 'sdy.replicated_to_unreduced' of a dimension its shardings do not divide: XLA's export aborts on it (it pads from jax 0.11)}}
  %0 = sdy.replicated_to_unreduced {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}], unreduced={"x"}> : tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}
