// RUN: pysdy-opt %s -sdy-user-priority-propagate -split-input-file | filecheck %s

// sdy-user-priority-propagate: expected output is what jaxlib's C++ pass prints.

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @priorities(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT:    %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT:    return %1 : tensor<8x8xf32>
// CHECK-NEXT:  }
// p0 shardings propagate everywhere before p1 ones may claim unsharded dims.
func.func @priorities(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p1, {?}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}p0, {?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @pass_through_first(
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:    %1 = stablehlo.add %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT:    return %1 : tensor<8x8xf32>
// CHECK-NEXT:  }
// Pass-through ops propagate first, so the elementwise path wins over the dot.
func.func @pass_through_first(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.add %0, %arg1 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// CHECK-LABEL: func private @callee(
// CHECK-SAME:      %arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {?}]>}) -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {"y"}], replicated={"x"}>}, tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}) {
// CHECK-NEXT:    return %arg0, %arg0 : tensor<16x16xf32>, tensor<16x16xf32>
// CHECK-NEXT:  }
// The result shardings of a function other than main take no part in propagation, but their priorities go all the
// same, as the rounds leave every sharding.
func.func private @callee(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {?}]>}) -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}p2, {"y"}p1], replicated={"x"}>}, tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p0, {?}]>}) {
  return %arg0, %arg0 : tensor<16x16xf32>, tensor<16x16xf32>
}

// CHECK-LABEL: func @main(
// CHECK-SAME:      %arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}) -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}) {
// CHECK-NEXT:    %0:2 = call @callee(%arg0) : (tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>)
// CHECK-NEXT:    return %arg0 : tensor<16x16xf32>
// CHECK-NEXT:  }
func.func @main(%arg0: tensor<16x16xf32>) -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1, {?}]>}) {
  %0:2 = call @callee(%arg0) : (tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>)
  return %arg0 : tensor<16x16xf32>
}
