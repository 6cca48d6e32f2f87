// RUN: not pysdy-opt %s --pass-pipeline="builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true mark-partial-result-with-unreduced-axes=true}))" 2>&1 | filecheck %s
// RUN: pysdy-opt %s --pass-pipeline="builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true mark-partial-result-with-unreduced-axes=false}))" | filecheck %s --check-prefix=UNMARKED
// REQUIRES: reshards_mark_partial_results_unreduced

// From jax 0.11, insert-explicit-reshards has the mark-partial-result-with-unreduced-axes option (the C++ then gives
// the dot's result unreduced={"x"} before the all-reduce); pysdy accepts the option but refuses it set to true.

// CHECK: error: sdy-insert-explicit-reshards: pysdy does not implement mark-partial-result-with-unreduced-axes=true
// UNMARKED-LABEL: func.func @dot_over_sharded_contraction(
// UNMARKED: %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
// UNMARKED-NEXT: %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x4xf32>
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @dot_over_sharded_contraction(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
