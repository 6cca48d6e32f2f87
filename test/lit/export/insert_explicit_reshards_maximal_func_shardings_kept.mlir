// RUN: pysdy-opt %s -sdy-insert-explicit-reshards | filecheck %s
// REQUIRES: !explicit_reshards_refuse_maximal_func_shardings

// Before jax 0.11, a function argument on a maximal mesh is left as it is (no reshard: the add has no sharding).

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>

// CHECK-LABEL: func @maximal_argument(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_1, []>}) -> tensor<16xf32>
func.func @maximal_argument(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_1, []>}) -> tensor<16xf32> {
  // CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 : tensor<16xf32>
  // CHECK-NEXT: return %0 : tensor<16xf32>
  %0 = stablehlo.add %arg0, %arg1 : tensor<16xf32>
  return %0 : tensor<16xf32>
}
