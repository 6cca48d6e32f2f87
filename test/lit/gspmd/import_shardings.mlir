// RUN: pysdy-opt %s -split-input-file -xla-sdy-import-shardings 2>/dev/null | filecheck %s -DMAXIMAL_MESH=%xla_maximal_mesh

// Only non-tiled shardings: an empty global mesh; {replicated} is closed, {unknown} open.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <[]>
// CHECK-NEXT: func.func @replicated_and_unknown(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}) -> (tensor<8x8xf32> {jax.result_info = "r", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
// CHECK-NEXT: %0 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>]>} : tensor<8xf32>
func.func @replicated_and_unknown(%arg0: tensor<8x8xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<8xf32> {mhlo.sharding = "{unknown}"}) -> (tensor<8x8xf32> {jax.result_info = "r", mhlo.sharding = "{replicated}"}) {
  %0 = stablehlo.negate %arg1 {mhlo.sharding = "{unknown}"} : tensor<8xf32>
  return %arg0 : tensor<8x8xf32>
}

// -----

// Maximal shardings on two devices: one maximal mesh per device, sorted, after the global mesh; the sharding has no dims.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <[]>
// CHECK-NEXT: sdy.mesh @[[MAXIMAL_MESH]]_1 = <[], device_ids=[1]>
// CHECK-NEXT: sdy.mesh @[[MAXIMAL_MESH]]_5 = <[], device_ids=[5]>
// CHECK-NEXT: func.func @maximal(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@[[MAXIMAL_MESH]]_5, []>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@[[MAXIMAL_MESH]]_1, []>}) -> tensor<8xf32> {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@[[MAXIMAL_MESH]]_5, []>]>} : tensor<8xf32>
func.func @maximal(%arg0: tensor<8xf32> {mhlo.sharding = "{maximal device=5}"}, %arg1: tensor<8xf32> {mhlo.sharding = "{maximal device=1}"}) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg1 {mhlo.sharding = "{maximal device=5}"} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// {manual} is closed and empty: sdy shardings have no manual axes (the shard_map import reads them).
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=4]>
// CHECK-NEXT: func.func @manual(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}]>}) -> tensor<2xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @SPMDFullToShardShape(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"_axis_0"}>} : (tensor<8xf32>) -> tensor<2xf32>
// CHECK-NEXT: %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<2xf32>
func.func @manual(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}) -> tensor<2xf32> {
  %0 = stablehlo.custom_call @SPMDFullToShardShape(%arg0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
  %1 = stablehlo.negate %0 {mhlo.sharding = "{manual}"} : tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

// An iota with a transpose names the mesh axes in the other order.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>
// CHECK-NEXT: func.func @transposed_iota(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}) -> tensor<8x8xf32> {
func.func @transposed_iota(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"}, %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// Tile dims that cut across each other (3x2 and 2x3 of 6 devices): one axis, named by sub-axes.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=6]>
// CHECK-NEXT: func.func @sub_axes(%arg0: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0":(1)3}, {"_axis_0":(3)2}]>}, %arg1: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0":(1)2}, {"_axis_0":(2)3}]>}) -> tensor<6x6xf32> {
func.func @sub_axes(%arg0: tensor<6x6xf32> {mhlo.sharding = "{devices=[3,2]<=[6]}"}, %arg1: tensor<6x6xf32> {mhlo.sharding = "{devices=[2,3]<=[6]}"}) -> tensor<6x6xf32> {
  return %arg0 : tensor<6x6xf32>
}

// -----

// A device list in no transposed iota order: the mesh takes it as device_ids.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=4], device_ids=[0, 2, 3, 1]>
// CHECK-NEXT: func.func @device_ids(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}]>}) -> tensor<8xf32> {
func.func @device_ids(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[4]0,2,3,1}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// last_tile_dim_replicate: the replicated devices are replicated axes; last_tile_dims={manual, replicated}:
// the manual devices are no part of the sharding, and the SPMDFullToShardShape custom call keeps them.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2, "_axis_2"=2]>
// CHECK-NEXT: func.func @subgroups(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}) -> tensor<4x8xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @SPMDFullToShardShape(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"_axis_0", "_axis_1"}>} : (tensor<8x8xf32>) -> tensor<4x8xf32>
func.func @subgroups(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}) -> tensor<4x8xf32> {
  %0 = stablehlo.custom_call @SPMDFullToShardShape(%arg0) {mhlo.sharding = "{devices=[1,1,4,2]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A tuple sharding gives each result its element; a non-tuple one on several results applies to each.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2]>
// CHECK-NEXT: func.func @tuples(%arg0: tensor<8xf32>, %arg1: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
// CHECK-NEXT: %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = false}> ({
// CHECK: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0"}]>, <@mesh, [{}]>]>} : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
// CHECK-NEXT: %1:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0"}]>, <@mesh, [{"_axis_0"}]>]>} %0#0, %0#1 : tensor<8xf32>, tensor<8xi32>
func.func @tuples(%arg0: tensor<8xf32>, %arg1: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %0:2 = "stablehlo.sort"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false, mhlo.sharding = "{{devices=[2]<=[2]}, {replicated}}"} : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  %1:2 = "stablehlo.optimization_barrier"(%0#0, %0#1) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  return %1#0, %1#1 : tensor<8xf32>, tensor<8xi32>
}

// -----

// Tokens take rank-0 shardings; an op without results takes its sharding's first element.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <[]>
// CHECK-NEXT: sdy.mesh @[[MAXIMAL_MESH]]_0 = <[], device_ids=[0]>
// CHECK-NEXT: func.func @tokens(%arg0: !stablehlo.token {sdy.sharding = #sdy.sharding<@[[MAXIMAL_MESH]]_0, []>}, %arg1: tensor<8xf32>) -> !stablehlo.token {
// CHECK-NEXT: %0 = stablehlo.after_all %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : !stablehlo.token
// CHECK-NEXT: stablehlo.custom_call @effect(%arg1) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@[[MAXIMAL_MESH]]_0, []>]>} : (tensor<8xf32>) -> ()
func.func @tokens(%arg0: !stablehlo.token {mhlo.sharding = "{maximal device=0}"}, %arg1: tensor<8xf32>) -> !stablehlo.token {
  %0 = stablehlo.after_all %arg0 {mhlo.sharding = "{replicated}"} : !stablehlo.token
  stablehlo.custom_call @effect(%arg1) {has_side_effect = true, mhlo.sharding = "{{maximal device=0}, {replicated}}"} : (tensor<8xf32>) -> ()
  return %0 : !stablehlo.token
}

// -----

// One mesh for every function of the module.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>
// CHECK-NEXT: func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}]>}) -> tensor<8xf32> {
// CHECK: func.func private @callee(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}]>}) {
func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}) -> tensor<8xf32> {
  %0 = call @callee(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @callee(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2,2]<=[4] last_tile_dim_replicate}"}) -> (tensor<8xf32> {mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}) {
  return %arg0 : tensor<8xf32>
}
