// RUN: not pysdy-opt %s -sdy-resolve-permutation-factors=partition-count=4 2>&1 | filecheck %s --check-prefix=PARTITIONS
// RUN: not pysdy-opt %s --pass-pipeline='builtin.module(sdy-resolve-permutation-factors{replica-count=2})' 2>&1 | filecheck %s --check-prefix=REPLICAS
// REQUIRES: !permutation_factors_device_count_options

// Before jax 0.11, sdy-resolve-permutation-factors has no partition-count or replica-count option.

// PARTITIONS: no such option 'partition-count' for pass 'sdy-resolve-permutation-factors'
// REPLICAS: no such option 'replica-count' for pass 'sdy-resolve-permutation-factors'
sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
