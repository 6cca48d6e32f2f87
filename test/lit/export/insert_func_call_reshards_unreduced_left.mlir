// REQUIRES: func_call_reshards_unreduced=left
// RUN: pysdy-opt %s -split-input-file -sdy-insert-func-call-reshards | filecheck %s

// A call whose result sharding has the callee's dimension axes plus unreduced axes the callee's lacks.
// jaxlib 0.12's Shardy leaves a call result whose unreduced axes differ from its callee's alone: the call keeps its own
// sharding, unreduced axes and priority included, and gets no reshard.
// Expected output: that line's C++ pass on this input.

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
sdy.mesh @other = <["x"=4, "y"=2, "z"=3]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// CHECK-NEXT: %0 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}p1, {}], unreduced={"y"}>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %1 = stablehlo.abs %0 : tensor<8x6xf32>
// CHECK-NEXT: return %1 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @f(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}) {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }
func.func @main(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}p1, {}], unreduced={"y"}>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %1 = stablehlo.abs %0 : tensor<8x6xf32>
  return %1 : tensor<8x6xf32>
}
func.func private @f(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}) {
  return %arg0 : tensor<8x6xf32>
}

// -----

// The same unreduced axes on both sides: the call takes its callee's sharding, resharded to its own after it.

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// CHECK-NEXT: %0 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{}, {}], unreduced={"y"}> : tensor<8x6xf32>
// CHECK-NEXT: %2 = stablehlo.abs %1 : tensor<8x6xf32>
// CHECK-NEXT: return %2 : tensor<8x6xf32>
func.func @main(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %1 = stablehlo.abs %0 : tensor<8x6xf32>
  return %1 : tensor<8x6xf32>
}
func.func private @f(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) {
  return %arg0 : tensor<8x6xf32>
}
