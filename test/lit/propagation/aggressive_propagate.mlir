// RUN: pysdy-opt %s -sdy-aggressive-propagate -split-input-file | filecheck %s

// sdy-aggressive-propagate: expected output is what jaxlib's C++ pass prints.

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @dot_conflict(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT:    return %0 : tensor<8x32xf32>
// CHECK-NEXT:  }
// The aggressive strategy resolves conflicts the basic one leaves alone.
func.func @dot_conflict(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @elementwise_conflict(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT:    %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
// CHECK-NEXT:    return %0 : tensor<8x16xf32>
// CHECK-NEXT:  }
func.func @elementwise_conflict(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
