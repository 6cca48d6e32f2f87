// RUN: not pysdy-opt %s -sdy-drop-sharding-and-mesh=keep-module-sharding-metadata=true 2>&1 | filecheck %s
// REQUIRES: !drop_sharding_keep_metadata_option

// Before jax 0.12, sdy-drop-sharding-and-mesh has no keep-module-sharding-metadata option.

// CHECK: no such option 'keep-module-sharding-metadata' for pass 'sdy-drop-sharding-and-mesh'
sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
