// RUN: not pysdy-opt %s --pass-pipeline="builtin.module(func.func(sdy-optimize-collectives))" 2>&1 | filecheck %s --check-prefix=REFUSED
// REQUIRES: optimize_collectives

// jax 0.11 rewrites a collective permute followed by a one-axis all-to-all; pysdy does not implement that rewrite and
// refuses the permute.

// REFUSED: error: sdy-optimize-collectives: pysdy does not implement the rewrite of a collective permute followed by all-to-alls
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @permute_then_one_axis_all_to_all(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}
