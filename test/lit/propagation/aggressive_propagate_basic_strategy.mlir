// RUN: pysdy-opt %s -sdy-aggressive-propagate=propagation-strategy=basic -split-input-file | filecheck %s

// propagation-strategy=basic: conflicts stay unresolved, as in sdy-basic-propagate.

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @dot_conflict(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) -> tensor<8x32xf32> {
// CHECK-NEXT:    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT:    return %0 : tensor<8x32xf32>
// CHECK-NEXT:  }
func.func @dot_conflict(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
