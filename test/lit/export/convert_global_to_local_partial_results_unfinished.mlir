// RUN: pysdy-opt %s -split-input-file -sdy-convert-global-to-local -verify-diagnostics
// REQUIRES: !convert_global_to_local_finishes_partial_results

// Before jax 0.12 the pass adds nothing after a dot or reduce whose partial results no sdy collective reads (jax
// 0.11's C++ converts the reduce as it is, leaving each device its own partial maximum, and aborts on the dot):
// pysdy refuses both (see convert_global_to_local_finishing.mlir for 0.12).

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @maxima_unfinished(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>
  // expected-error@+1 {{sdy-convert-global-to-local: 'stablehlo.reduce' reducing a dimension split on {"y"} without one sdy.all_reduce or sdy.reduce_scatter (max) over those axes after it to finish its partial results: on local parts it would compute wrong values}}
  %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @dot_unfinished(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  // expected-error@+1 {{sdy-convert-global-to-local: 'stablehlo.dot_general' reducing a dimension split on {"y"} without one sdy.all_reduce or sdy.reduce_scatter (sum) over those axes after it to finish its partial results: on local parts it would compute wrong values}}
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
