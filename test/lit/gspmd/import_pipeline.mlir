// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-import-pipeline 2>/dev/null | filecheck %s
// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-import-pipeline='allow-propagation-to-args=false,true allow-propagation-to-results=true' 2>/dev/null | filecheck %s --check-prefix=OPEN

// The whole import: shardings, shard_map, constants and sharding custom calls; allow-propagation opens @main's
// chosen arguments and results only.
// CHECK-LABEL: module @jit_fn
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>
// CHECK-NEXT: func.func public @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}) {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharding_constraint %0 <@mesh, [{"_axis_0"}, {?}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"_axis_0"}, {"_axis_1"}]>] out_shardings=[<@mesh, [{"_axis_0"}, {"_axis_1"}]>] manual_axes={"_axis_0", "_axis_1"} (%arg2: tensor<4x4xf32>) {
// CHECK-NEXT: %3 = sdy.constant dense<1.000000e+00> : tensor<4x4xf32>
// CHECK-NEXT: %4 = stablehlo.add %arg2, %3 : tensor<4x4xf32>
// CHECK-NEXT: sdy.return %4 : tensor<4x4xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
// OPEN: func.func public @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0", ?}, {"_axis_1", ?}]>}) {
module @jit_fn attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}, %arg1: tensor<8x8xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]<=[4]}"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {backend_config = "", mhlo.sharding = "{devices=[2,2]<=[4]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<4x4xf32>
    %4 = call @shmap_body(%3) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {backend_config = "", mhlo.sharding = "{devices=[2,2]<=[4]}"} : (tensor<4x4xf32>) -> tensor<8x8xf32>
    return %6 : tensor<8x8xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<4x4xf32>
    %0 = stablehlo.add %arg0, %cst : tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
  func.func private @unused(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    return %arg0 : tensor<4x4xf32>
  }
}
