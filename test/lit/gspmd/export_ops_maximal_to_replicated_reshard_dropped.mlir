// RUN: pysdy-opt %s -xla-sdy-export-ops | filecheck %s
// REQUIRES: xla_export_drops_maximal_replicated_reshards

// From jax 0.12, XLA's export drops a reshard from a maximal sharding to a replicated one.

// CHECK-LABEL: func.func @maximal_to_replicated(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) -> tensor<8xf32> {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 : tensor<8xf32>
sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
func.func @maximal_to_replicated(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) -> tensor<8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
