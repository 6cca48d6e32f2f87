// RUN: not pysdy-opt %s -sdy-convert-global-to-local=partition-count=4 2>&1 | filecheck %s --check-prefix=PARTITIONS
// RUN: not pysdy-opt %s -sdy-convert-global-to-local=replica-count=2 2>&1 | filecheck %s --check-prefix=REPLICAS
// REQUIRES: !convert_global_to_local_device_counts

// Before jax 0.11, sdy-convert-global-to-local has neither a partition-count nor a replica-count option (jaxlib
// 0.10.2's pass manager: "no such option partition-count", "no such option replica-count").

// PARTITIONS: no such option 'partition-count' for pass 'sdy-convert-global-to-local'
// REPLICAS: no such option 'replica-count' for pass 'sdy-convert-global-to-local'
sdy.mesh @mesh = <["x"=2]>
func.func @replicated(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
