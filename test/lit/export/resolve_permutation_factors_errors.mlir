// RUN: pysdy-opt %s -sdy-resolve-permutation-factors -split-input-file -verify-diagnostics

// pysdy does not implement halo exchanges: where jaxlib exchanges halos between devices (every jax line for a
// reverse along a non-divisible sharded dimension), pysdy refuses the op.

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @reverse_non_divisible(%arg0: tensor<7x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<7x8xf32> {
  // expected-error@+1 {{sdy-resolve-permutation-factors: pysdy does not implement the halo exchange of a reverse along non-divisible dimension 0}}
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<7x8xf32>
  return %0 : tensor<7x8xf32>
}

