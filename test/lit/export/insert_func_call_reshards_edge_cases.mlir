// RUN: pysdy-opt %s -sdy-insert-func-call-reshards -split-input-file | filecheck %s

// How a call's result shardings meet its callee's: the call always gets the callee's shardings; a reshard back
// follows each result unless both shard no dimension (on any mesh, maximal ones included) or both have the
// same mesh and dimension axes. A callee whose result shardings are all maximal or missing counts as having
// none; a missing side stands for fully replicated, closed like the other side's sharding.
// Expected output: jaxlib's C++ pass on each input.

// Only maximal callee results (a host callback returned from a loop body): they count as none, so the call's
// result becomes fully closed on its own mesh and is resharded back.
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK: sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = call @callback(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{"x", ?}, {?}]> : tensor<8x16xf32>
// CHECK-NEXT: return %1 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @callback(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) {
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
func.func @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = func.call @callback(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
func.func private @callback(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) {
  return %arg0 : tensor<8x16xf32>
}

// -----

// Only maximal callee results and an unsharded call: nothing changes.
// CHECK: sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = call @callback(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @callback(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) {
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
func.func @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = func.call @callback(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
func.func private @callback(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) {
  return %arg0 : tensor<8x16xf32>
}

// -----

// A maximal and a named callee result on an unsharded call: the call takes both, and only the sharded one
// is resharded back to replicated.
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK: sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
// CHECK-NEXT: %0:2 = call @callback(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>, <@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK-NEXT: %1 = sdy.reshard %0#1 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %0#0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @callback(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
// CHECK-NEXT: return %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
func.func @main(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:2 = func.call @callback(%arg0) : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}
func.func private @callback(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  return %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// A maximal call result and a callee result without sharding: both replicated, no reshard.
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK: sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
// CHECK-NEXT: %0:2 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>, <@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK-NEXT: return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @f(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
// CHECK-NEXT: return %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
func.func @main(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:2 = func.call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>, <@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}
func.func private @f(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  return %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// A callee without shardings: the call's shardings become fully closed (replicated axes dropped), no reshard.
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
// CHECK-NEXT: %0:2 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>]>} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK-NEXT: return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @f(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
// CHECK-NEXT: return %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:2 = func.call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>, <@mesh, [{}, {}], replicated={"y"}>]>} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}
func.func private @f(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  return %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// Same axes on two meshes of the same shape but different names: resharded; no axes on either: not.
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK: sdy.mesh @mesh2 = <["x"=2, "y"=4]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
// CHECK-NEXT: %0:2 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{?}, {?}]>]>} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK-NEXT: %1 = sdy.reshard %0#0 <@mesh2, [{"x"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %1, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @f(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) {
// CHECK-NEXT: return %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @mesh2 = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:2 = func.call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh2, [{"x"}, {}]>, <@mesh2, [{}, {}]>]>} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}
func.func private @f(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) {
  return %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>
}
