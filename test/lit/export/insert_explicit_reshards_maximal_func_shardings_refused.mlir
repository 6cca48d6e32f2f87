// RUN: pysdy-opt %s -sdy-insert-explicit-reshards -split-input-file -verify-diagnostics
// REQUIRES: explicit_reshards_refuse_maximal_func_shardings

// From jax 0.11, a function argument or result on a maximal mesh is an error on the function (jax 0.11 says
// "single-device (maximal)", 0.12 "single-device"): the first argument, else the first result.

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>

// expected-error@+1 {{'func.func' op function argument 1 cannot have a single-device}}
func.func @maximal_argument(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_1, []>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_1, []>}) {
  %0 = stablehlo.add %arg0, %arg1 : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>

// expected-error@+1 {{'func.func' op function result 0 cannot have a single-device}}
func.func @maximal_result(%arg0: tensor<16xf32>) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_1, []>}) {
  return %arg0 : tensor<16xf32>
}
