// RUN: not pysdy-opt %s -sdy-per-instruction-partitioning=rng-bit-generator-unsafe=false 2>&1 | filecheck %s
// REQUIRES: per_instruction_partitioning, !per_instruction_rng_option

// Before jax 0.12, sdy-per-instruction-partitioning has no rng-bit-generator-unsafe option (jaxlib 0.11.2's pass
// manager: "no such option rng-bit-generator-unsafe").

// CHECK: no such option 'rng-bit-generator-unsafe' for pass 'sdy-per-instruction-partitioning'
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
