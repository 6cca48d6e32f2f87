// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-export-manual-reduction-collectives -verify-diagnostics
// REQUIRES: xla_export_pads_non_divisible_unreduced_collectives

// Padding a dimension the shardings do not divide needs the reduction's identity; where XLA's export cannot make it
// (it crashes, or its float library has no such value), pysdy refuses the op.

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @complex_padded(%arg0: tensor<6x5xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>}) -> tensor<6x5xcomplex<f32>> {
  // expected-error@+1 {{pysdy cannot export 'sdy.all_reduce' of complex<f32> elements: XLA's export crashes making their zero}}
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<6x5xcomplex<f32>>
  return %0 : tensor<6x5xcomplex<f32>>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @finite_only_max_padded(%arg0: tensor<6x5xf4E2M1FN> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced=max{"x"}>}) -> tensor<6x5xf4E2M1FN> {
  // expected-error@+1 {{pysdy cannot export 'sdy.all_reduce' of f4E2M1FN elements, which have no infinity to start a max from}}
  %0 = sdy.all_reduce max {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<6x5xf4E2M1FN>
  return %0 : tensor<6x5xf4E2M1FN>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @no_zero_padded(%arg0: tensor<6x8xf8E8M0FNU> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y"}>}) -> tensor<6x8xf8E8M0FNU> {
  // expected-error@+1 {{pysdy cannot export 'sdy.reduce_scatter' of f8E8M0FNU elements, which have no zero}}
  %0 = sdy.reduce_scatter [{"y"}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<6x8xf8E8M0FNU>
  return %0 : tensor<6x8xf8E8M0FNU>
}
