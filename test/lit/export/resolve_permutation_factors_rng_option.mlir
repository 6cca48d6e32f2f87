// RUN: pysdy-opt %s -sdy-resolve-permutation-factors=rng-bit-generator-unsafe=false -verify-diagnostics
// REQUIRES: permutation_factors_rng_unsafe_option

// From jax 0.12 the pass has `rng-bit-generator-unsafe` (default true); pysdy implements only the default, and
// refuses the option's other value on a module with an rng bit generator.

// expected-error@+1 {{sdy-resolve-permutation-factors: pysdy does not implement rng-bit-generator-unsafe=false}}
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @rng_bit_generator(%arg0: tensor<2xui64>) -> tensor<2xui64> {
  %0:2 = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2xui64>)
  return %0#0 : tensor<2xui64>
}
