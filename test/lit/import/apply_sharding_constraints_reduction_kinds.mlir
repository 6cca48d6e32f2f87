// RUN: pysdy-opt %s -sdy-apply-sharding-constraints | filecheck %s
// REQUIRES: unreduced_reduction_kinds

// A constraint on a data-flow edge's target leaves the edge open, but gives it the constraint's unreduced axes
// (they do not propagate) with their kind: min here, not sum.

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @main(
// CHECK: %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{?}], unreduced=min{"x"}> : tensor<8xf32>
// CHECK-NEXT: %2 = sdy.sharding_constraint %1 <@mesh, [{"y"}], unreduced=min{"x"}> : tensor<8xf32>
func.func @main(%arg0: tensor<i32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1 : tensor<8xf32>
  }, {
    stablehlo.return %arg2 : tensor<8xf32>
  }) : (tensor<i32>) -> tensor<8xf32>
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"y"}], unreduced=min{"x"}> : tensor<8xf32>
  return %2 : tensor<8xf32>
}
