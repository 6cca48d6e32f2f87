// RUN: not pysdy-opt %s --pass-pipeline="builtin.module(func.func(sdy-optimize-collectives))" 2>&1 | filecheck %s
// REQUIRES: !optimize_collectives

// Before jax 0.11 there is no sdy-optimize-collectives.

// CHECK: unknown pass 'sdy-optimize-collectives'
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @permute_alone(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
