// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-export-manual-reduction-collectives -verify-diagnostics
// REQUIRES: unreduced_reduction_kinds

// XLA's export aborts on a move to unreduced axes that are not sum-reduced; pysdy refuses it at the op.

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @sharded_to_max_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@+1 {{pysdy cannot export 'sdy.sharded_to_unreduced' to max-reduced unreduced axes: XLA's export aborts on them}}
  %0 = sdy.sharded_to_unreduced [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}], unreduced=max{"y"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @replicated_to_min_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@+1 {{pysdy cannot export 'sdy.replicated_to_unreduced' to min-reduced unreduced axes: XLA's export aborts on them}}
  %0 = sdy.replicated_to_unreduced {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}], unreduced=min{"x"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A constant with max-reduced unreduced axes becomes such a move, refused at the constant.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @max_unreduced_constant() -> tensor<8x8xf32> {
  // expected-error@+1 {{pysdy cannot export 'sdy.replicated_to_unreduced' to max-reduced unreduced axes: XLA's export aborts on them}}
  %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced=max{"x"}>]>} dense<1.0> : tensor<8x8xf32>
  %1 = sdy.all_reduce max {"x"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
