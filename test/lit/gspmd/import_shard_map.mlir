// RUN: pysdy-opt %s -split-input-file -xla-sdy-import-shardings -xla-sdy-shard-map-import 2>/dev/null | filecheck %s

// JAX's GSPMD shard_map: the body moves into an sdy.manual_computation; {manual} makes every mesh axis manual,
// and the out-sharding, which uses none, gets them as replicated axes.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>
// CHECK-NEXT: func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}) -> tensor<4x1xf32> {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"_axis_0"}, {"_axis_1"}]>] out_shardings=[<@mesh, [{}, {}], replicated={"_axis_0", "_axis_1"}>] manual_axes={"_axis_0", "_axis_1"} (%arg1: tensor<4x4xf32>) {
// CHECK-NEXT: %1 = stablehlo.slice %arg1 [0:4, 0:1] : (tensor<4x4xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: sdy.return %1 : tensor<4x1xf32>
// CHECK-NEXT: } : (tensor<8x16xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: return %0 : tensor<4x1xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) -> tensor<4x1xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8x16xf32>) -> tensor<4x4xf32>
  %2 = call @shmap_body(%1) : (tensor<4x4xf32>) -> tensor<4x1xf32>
  %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<4x1xf32>) -> tensor<4x1xf32>
  return %4 : tensor<4x1xf32>
}
func.func private @shmap_body(%arg0: tensor<4x4xf32>) -> (tensor<4x1xf32> {jax.result_info = "[None, None]"}) {
  %0 = stablehlo.slice %arg0 [0:4, 0:1] : (tensor<4x4xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// Partly manual (last_tile_dims={manual, replicated}); two calls of one body (the second gets a copy); an unused result is dropped.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>
// CHECK-NEXT: func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}]>}) -> (tensor<8xf32>, tensor<8xf32>) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"_axis_0"}]>] out_shardings=[<@mesh, [{"_axis_0"}]>] manual_axes={"_axis_0"} (%arg1: tensor<4xf32>) {
// CHECK-NEXT: %2 = stablehlo.negate %arg1 : tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.abs %arg1 : tensor<4xf32>
// CHECK-NEXT: sdy.return %2 : tensor<4xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"_axis_0"}]>] out_shardings=[<@mesh, [{"_axis_0"}]>] manual_axes={"_axis_0"} (%arg1: tensor<4xf32>) {
// CHECK-NEXT: %2 = stablehlo.negate %arg1 : tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.abs %arg1 : tensor<4xf32>
// CHECK-NEXT: sdy.return %3 : tensor<4xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %0, %1 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2,4]<=[8] last_tile_dim_replicate}"}) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,4]<=[8] last_tile_dim_replicate}"} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{devices=[1,2,4]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<8xf32>) -> tensor<4xf32>
  %2:2 = call @shmap_body_0(%1) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %3 = stablehlo.custom_call @Sharding(%2#0) {mhlo.sharding = "{devices=[1,2,4]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<4xf32>) -> tensor<4xf32>
  %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[2,4]<=[8] last_tile_dim_replicate}"} : (tensor<4xf32>) -> tensor<8xf32>
  %5:2 = call @shmap_body_0(%1) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %6 = stablehlo.custom_call @Sharding(%5#1) {mhlo.sharding = "{devices=[1,2,4]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<4xf32>) -> tensor<4xf32>
  %7 = stablehlo.custom_call @SPMDShardToFullShape(%6) {mhlo.sharding = "{devices=[2,4]<=[8] last_tile_dim_replicate}"} : (tensor<4xf32>) -> tensor<8xf32>
  return %4, %7 : tensor<8xf32>, tensor<8xf32>
}
func.func private @shmap_body_0(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<4xf32>
  %1 = stablehlo.abs %arg0 : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Without recorded manual axes (the custom calls carry sdy shardings already), XLA's rule: the axes the in/out shardings use.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-NEXT: func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"b"}]>] out_shardings=[<@mesh, [{"b"}]>] manual_axes={"b"} (%arg1: tensor<4xf32>) {
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8xf32>) -> tensor<4xf32>
  %2 = call @shmap_body(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = stablehlo.custom_call @Sharding(%2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<4xf32>) -> tensor<4xf32>
  %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : (tensor<4xf32>) -> tensor<8xf32>
  return %4 : tensor<8xf32>
}
func.func private @shmap_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// -----

// The same shape as XLA's own export writes it (copies for constraints, an inlinable body) also imports,
// so an exported manual computation comes back.
// CHECK-LABEL: module @xla_export_form {
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>
// CHECK-NEXT: func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"_axis_0"}, {"_axis_1"}]>] out_shardings=[<@mesh, [{"_axis_0"}, {"_axis_1"}]>] manual_axes={"_axis_0", "_axis_1"} (%arg1: tensor<4x4xf32>) {
// CHECK-NEXT: %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<4x4xf32>
// CHECK-NEXT: sdy.return %1 : tensor<4x4xf32>
// CHECK-NEXT: } : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
module @xla_export_form {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) -> (tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) {
    %0 = mhlo.copy %arg0 {mhlo.sharding = "{devices=[2,4]<=[8]}"} : tensor<8x16xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x16xf32>) -> tensor<4x4xf32>
    %2 = call @xla.sdy.inlinable_manual_computation_body(%1) {mhlo.sharding = "{manual}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = mhlo.copy %2 {mhlo.sharding = "{manual}"} : tensor<4x4xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<4x4xf32>) -> tensor<8x16xf32>
    return %4 : tensor<8x16xf32>
  }
  func.func private @xla.sdy.inlinable_manual_computation_body(%arg0: tensor<4x4xf32> {mhlo.sharding = "{manual}"}) -> (tensor<4x4xf32> {mhlo.sharding = "{manual}"}) {
    %0 = stablehlo.negate %arg0 {mhlo.sharding = "{manual}"} : tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}

// -----

// A shard_map manual over one axis with a replicated in_spec (JAX writes unspecified_dims for the free axis):
// the in/out shardings have those dims open, and the manual axis replicated.
// CHECK-LABEL: module @partly_manual_replicated_spec {
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>
// CHECK-NEXT: func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}, {?}], replicated={"_axis_0"}>] out_shardings=[<@mesh, [{?}, {?}], replicated={"_axis_0"}>] manual_axes={"_axis_0"} (%arg1: tensor<8x16xf32>) {
// CHECK-NEXT: %1 = stablehlo.tanh %arg1 : tensor<8x16xf32>
// CHECK-NEXT: sdy.return %1 : tensor<8x16xf32>
// CHECK-NEXT: } : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
module @partly_manual_replicated_spec {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) -> tensor<8x16xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{replicated}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %2 = call @shmap_body(%1) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{replicated}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %4 : tensor<8x16xf32>
  }
  func.func private @shmap_body(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

// Manual over "_axis_0" with an in_spec that uses it: dim 0 keeps the manual axis and is open for more; only
// the custom call's own unspecified dims open (here the in-sharding's dim 1 but not the out-sharding's).
// CHECK-LABEL: module @partly_manual_sharded_spec {
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>
// CHECK-NEXT: func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"_axis_0", ?}, {?}]>] out_shardings=[<@mesh, [{"_axis_0", ?}, {}]>] manual_axes={"_axis_0"} (%arg1: tensor<4x16xf32>) {
// CHECK-NEXT: %1 = stablehlo.exponential %arg1 : tensor<4x16xf32>
// CHECK-NEXT: sdy.return %1 : tensor<4x16xf32>
// CHECK-NEXT: } : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
module @partly_manual_sharded_spec {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) -> tensor<8x16xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<8x16xf32>) -> tensor<4x16xf32>
    %2 = call @shmap_body(%1) : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "unspecified_dims=[0]", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<4x16xf32>) -> tensor<8x16xf32>
    return %4 : tensor<8x16xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %0 = stablehlo.exponential %arg0 : tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
}

// -----

// XLA's export of an all-reduce over an unreduced axis (a fully manual computation): the in-sharding keeps its
// unreduced axis, which is manual without being replicated.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>
// CHECK-NEXT: func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {}], unreduced={"_axis_0"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {}]>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"_axis_1"}, {}], unreduced={"_axis_0"}>] out_shardings=[<@mesh, [{"_axis_1"}, {}], replicated={"_axis_0"}>] manual_axes={"_axis_0", "_axis_1"} (%arg1: tensor<2x8xf32>) {
// CHECK-NEXT: %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.add %arg2, %arg3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: sdy.return %1 : tensor<2x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={unreduced}}"}) -> (tensor<8x8xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}) {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={unreduced}}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<2x8xf32>
  %2 = call @xla.sdy.inlinable_manual_computation_body(%1) {mhlo.sharding = "{manual}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<2x8xf32>) -> tensor<8x8xf32>
  return %4 : tensor<8x8xf32>
}
func.func private @xla.sdy.inlinable_manual_computation_body(%arg0: tensor<2x8xf32> {mhlo.sharding = "{manual}"}) -> (tensor<2x8xf32> {mhlo.sharding = "{manual}"}) {
  %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %1 = stablehlo.add %arg1, %arg2 {mhlo.sharding = "{manual}"} : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {mhlo.sharding = "{manual}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
