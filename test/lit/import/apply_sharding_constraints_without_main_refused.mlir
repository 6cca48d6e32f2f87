// RUN: not pysdy-opt %s -sdy-apply-sharding-constraints 2>&1 | filecheck %s
// REQUIRES: apply_sharding_constraints_needs_main

// From jax 0.12, sdy-apply-sharding-constraints looks up @main, and the C++ aborts in a module of several functions
// without one; pysdy reports it instead.

// CHECK: apply_sharding_constraints_without_main_refused.mlir:8:1: error: sdy-apply-sharding-constraints needs a function @main, or a single function (jaxlib's C++ aborts without)
sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
