// RUN: not pysdy-opt %s -sdy-remove-size-one-axes 2>&1 | filecheck %s
// REQUIRES: !unreduced_reduction_kinds

// Before jax 0.11 a sharding has no reduction kind: `unreduced=max{...}` is a located parse error, not a sharding
// whose kind pysdy could drop.

// CHECK-NOT: Traceback
// CHECK: reduction_kinds_unknown.mlir:[[# @LINE + 2]]:88: error: expected '{'
sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=max{"x"}>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
