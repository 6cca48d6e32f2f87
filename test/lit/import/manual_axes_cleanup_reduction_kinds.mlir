// RUN: pysdy-opt %s -sdy-manual-axes-cleanup | filecheck %s
// REQUIRES: unreduced_reduction_kinds

// A manual axis a sharding does not use becomes replicated there; the sharding's unreduced axes keep their kind.

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// CHECK-LABEL: func.func @max_kind_kept(
func.func @max_kind_kept(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: sdy.manual_computation(%arg0)
  // CHECK-SAME: in_shardings=[<@mesh, [{"c", ?}], replicated={"a"}, unreduced=max{"b"}>]
  // CHECK-SAME: out_shardings=[<@mesh, [{"c", ?}], replicated={"a"}, unreduced=min{"b"}>]
  // CHECK-SAME: manual_axes={"a", "c"}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"c", ?}], unreduced=max{"b"}>] out_shardings=[<@mesh, [{"c", ?}], unreduced=min{"b"}>] manual_axes={"c", "a"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
