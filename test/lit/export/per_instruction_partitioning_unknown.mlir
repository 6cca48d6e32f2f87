// RUN: not pysdy-opt %s --pass-pipeline="builtin.module(sdy-per-instruction-partitioning)" 2>&1 | filecheck %s
// REQUIRES: !per_instruction_partitioning

// Before jax 0.11 there is no sdy-per-instruction-partitioning (jaxlib 0.10.2's pass manager does not know it).

// CHECK: unknown pass 'sdy-per-instruction-partitioning'
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
