// RUN: pysdy-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true}))' | filecheck %s
// REQUIRES: !equivalence_counts_unreduced_axes

// Up to jax 0.10, replicated dimensions make two shardings equivalent whatever their unreduced axes
// and meshes: no reshard is inserted.

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @twin = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @main
// CHECK-NEXT: return %arg0 : tensor<8x8xf32>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@twin, [{}, {}], unreduced={"x"}>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) {
  return %arg0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @twin = <["x"=2, "y"=2]>

// Without unreduced axes, replicated shardings on two meshes are still equivalent.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: return %arg0 : tensor<8x8xf32>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@twin, [{}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], replicated={"x"}>}) {
  return %arg0 : tensor<8x8xf32>
}
