// RUN: pysdy-opt %s -sdy-user-priority-propagate | filecheck %s
// REQUIRES: unreduced_reduction_kinds

// A priority round restores a dimension's sharding and keeps the unreduced axes with their kind (max here).

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// CHECK-LABEL: func.func @main(
// CHECK-NEXT: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}], unreduced=max{"c"}>]>}
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b"}p1]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}p1], unreduced=max{"c"}>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
