// RUN: pysdy-opt %s -split-input-file -sdy-insert-func-call-reshards | filecheck %s

// Which call results get a reshard, and which sharding the call keeps, when either side is open, replicated,
// missing or on a maximal mesh. Expected output: jaxlib's C++ pass on this input.

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
sdy.mesh @other = <["x"=4, "y"=2, "z"=3]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// CHECK-NEXT: %0 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@other, [{?}, {?}]>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %1 = stablehlo.abs %0 : tensor<8x6xf32>
// CHECK-NEXT: return %1 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @f(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{?}, {?}]>}) {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }
// Replicated on both sides, even on different meshes: the call takes the callee's sharding, no reshard.
func.func @main(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %1 = stablehlo.abs %0 : tensor<8x6xf32>
  return %1 : tensor<8x6xf32>
}
func.func private @f(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{?}, {?}]>}) {
  return %arg0 : tensor<8x6xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
sdy.mesh @other = <["x"=4, "y"=2, "z"=3]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %arg0: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>) {
// CHECK-NEXT: %0 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{"x"}, {?}]> : tensor<8x6xf32>
// CHECK-NEXT: %2 = call @g(%1) {sdy.sharding = #sdy.sharding_per_value<[<@other, [{}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: return %1, %2 : tensor<8x6xf32>, tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @f(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @g(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }
// A callee result without a sharding (or only on a maximal mesh) is replicated on the call's mesh.
func.func @main(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>) {
  %0 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {?}]>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %1 = call @g(%0) {sdy.sharding = #sdy.sharding_per_value<[<@other, [{?}, {?}], replicated={"y"}>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %0, %1 : tensor<8x6xf32>, tensor<8x6xf32>
}
func.func private @f(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  return %arg0 : tensor<8x6xf32>
}
func.func private @g(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) {
  return %arg0 : tensor<8x6xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
sdy.mesh @other = <["x"=4, "y"=2, "z"=3]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %arg0: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>) {
// CHECK-NEXT: %0:3 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@other, [{?}, {?}]>, <@other, [{"x"}, {}]>, <@maximal_mesh_0, []>]>} : (tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>)
// CHECK-NEXT: %1 = sdy.reshard %0#1 <@mesh, [{?}, {?}]> : tensor<8x6xf32>
// CHECK-NEXT: %2 = sdy.reshard %0#0 <@mesh, [{"y"}, {?}]> : tensor<8x6xf32>
// CHECK-NEXT: %3:3 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@other, [{?}, {?}]>, <@other, [{"x"}, {}]>, <@maximal_mesh_0, []>]>} : (tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>)
// CHECK-NEXT: %4 = sdy.reshard %3#1 <@other, [{}, {}]> : tensor<8x6xf32>
// CHECK-NEXT: return %2, %1, %4 : tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @f(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {}]>}, tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) {
// CHECK-NEXT: return %arg0, %arg0, %arg0 : tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>
// CHECK-NEXT: }
// A callee's missing result sharding is fully open on the mesh of its first non-maximal one; a call
// without a sharding is replicated on the callee's mesh.
func.func @main(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>) {
  %0:3 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {?}]>, <@mesh, [{?}, {?}]>, <@mesh, [{?}, {?}]>]>} : (tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>)
  %1:3 = call @f(%arg0) : (tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>)
  return %0#0, %0#1, %1#1 : tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>
}
func.func private @f(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {}]>}, tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) {
  return %arg0, %arg0, %arg0 : tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>
}
