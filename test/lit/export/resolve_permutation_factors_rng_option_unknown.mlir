// RUN: not pysdy-opt %s -sdy-resolve-permutation-factors=rng-bit-generator-unsafe=true 2>&1 | filecheck %s
// REQUIRES: !permutation_factors_rng_unsafe_option

// Before jax 0.12, sdy-resolve-permutation-factors has no rng-bit-generator-unsafe option (not even its default).

// CHECK: no such option 'rng-bit-generator-unsafe' for pass 'sdy-resolve-permutation-factors'
sdy.mesh @mesh = <["x"=2]>
func.func @rng_bit_generator(%arg0: tensor<2xui64>) -> tensor<2xui64> {
  %0:2 = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2xui64>)
  return %0#0 : tensor<2xui64>
}
