// RUN: pysdy-opt %s -xla-sdy-import-shardings | filecheck %s
// REQUIRES: xla_import_single_device_mesh_names

// From jax 0.12, XLA's import names the mesh of {maximal device=N} single_device_N.

// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <[]>
// CHECK-NEXT: sdy.mesh @single_device_3 = <[], device_ids=[3]>
// CHECK-NEXT: func.func @maximal(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@single_device_3, []>}) -> tensor<8xf32> {
func.func @maximal(%arg0: tensor<8xf32> {mhlo.sharding = "{maximal device=3}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
