// RUN: pysdy-opt %s -sdy-basic-propagate -split-input-file | filecheck %s

// Maximal meshes (device ids, no axes), as JAX emits for host callbacks: not empty, so never compatible
// with a named mesh when choosing an op's common mesh, and maximal shardings do not propagate.
// Expected output: jaxlib's C++ pass on each input.

// The add sees a maximal and a named mesh: no common mesh, nothing propagates through it.
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK: sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// CHECK-LABEL: func.func @maximal_and_named_mesh(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %2 = stablehlo.add %1, %arg0 : tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
func.func @maximal_and_named_mesh(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.sine %arg0 : tensor<8x8xf32>
  %1 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.add %1, %arg0 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

// Only maximal shardings around the add: the common mesh is maximal, and maximal shardings do not propagate.
// CHECK: sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// CHECK-LABEL: func.func @only_maximal_shardings(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %2 = stablehlo.add %0, %1 : tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
func.func @only_maximal_shardings(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

// An empty mesh is compatible with any other, a maximal one included: the common mesh is then maximal.
// CHECK: sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// CHECK: sdy.mesh @empty = <[]>
// CHECK-LABEL: func.func @maximal_and_empty_mesh(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@empty, [{}, {}]>}) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.add %0, %arg0 : tensor<8x8xf32>
// CHECK-NEXT: return %1 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
sdy.mesh @empty = <[]>
func.func @maximal_and_empty_mesh(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@empty, [{}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

// A maximal function result sharding does not reach the returned value.
// CHECK: sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
// CHECK-LABEL: func.func @maximal_func_result(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_1, []>}) {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
// CHECK-NEXT: return %0 : tensor<8xf32>
// CHECK-NEXT: }
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
func.func @maximal_func_result(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_1, []>}) {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// The named mesh still propagates around the callback, through the ops that do not touch it.
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK: sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// CHECK-LABEL: func.func @named_mesh_around_callback(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.custom_call @cb(%0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %2 = stablehlo.add %1, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT: %3 = stablehlo.dot_general %2, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %3 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
func.func @named_mesh_around_callback(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.sine %arg0 : tensor<8x16xf32>
  %1 = stablehlo.custom_call @cb(%0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.add %1, %arg0 : tensor<8x16xf32>
  %3 = stablehlo.dot_general %2, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
