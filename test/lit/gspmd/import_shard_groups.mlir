// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-import-pipeline 2>/dev/null | filecheck %s

// GSPMD shard groups (`shard_as N`, `shard_like N`, as jax.shard_alike lowers) import as XLA's import has them
// (jaxlib's XLA, reached by test_import_pipeline.py): the group is dropped and the sharding stays. An
// `{unknown shard_as N}` @Sharding call becomes a fully open sharding constraint, an unused one included;
// no sdy.sharding_group is made.
// CHECK-LABEL: module @shard_as_pair
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>
// CHECK-NEXT: func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = sdy.sharding_constraint %arg0 <@mesh, [{?}, {?}]> : tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.multiply %arg0, %arg0 : tensor<8x16xf32>
// CHECK-NEXT: %2 = sdy.sharding_constraint %1 <@mesh, [{?}, {?}]> : tensor<8x16xf32>
// CHECK-NEXT: %3 = stablehlo.add %2, %2 : tensor<8x16xf32>
// CHECK-NEXT: return %3 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
module @shard_as_pair attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) -> tensor<8x16xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", has_side_effect = true, mhlo.sharding = "{unknown shard_as 0}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = stablehlo.multiply %arg0, %arg0 : tensor<8x16xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {backend_config = "", has_side_effect = true, mhlo.sharding = "{unknown shard_as 0}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %3 = stablehlo.add %2, %2 : tensor<8x16xf32>
    return %3 : tensor<8x16xf32>
  }
}

// -----

// `shard_like N`: an unknown sharding opens, a replicated one stays closed.
// CHECK-LABEL: module @shard_like_unknown_and_replicated
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>
// CHECK-NEXT: func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
// CHECK-NEXT: %0 = sdy.sharding_constraint %arg0 <@mesh, [{?}, {?}]> : tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.negate %arg0 : tensor<8x16xf32>
// CHECK-NEXT: %2 = sdy.sharding_constraint %1 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %0, %2 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
module @shard_like_unknown_and_replicated attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {has_side_effect = true, mhlo.sharding = "{unknown shard_like 1}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = stablehlo.negate %arg0 : tensor<8x16xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {mhlo.sharding = "{replicated shard_like 1}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0, %2 : tensor<8x16xf32>, tensor<8x16xf32>
  }
}

// -----

// A tiled sharding in a shard group (on an argument and on constraints) keeps its tiles; unspecified_dims
// still open their dims.
// CHECK-LABEL: module @tiled_shard_as
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>
// CHECK-NEXT: func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
// CHECK-NEXT: %0 = sdy.sharding_constraint %arg0 <@mesh, [{"_axis_0"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.negate %arg0 : tensor<8x16xf32>
// CHECK-NEXT: %2 = sdy.sharding_constraint %1 <@mesh, [{"_axis_0"}, {?}]> : tensor<8x16xf32>
// CHECK-NEXT: return %0, %2 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
module @tiled_shard_as attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8] shard_as 2}"}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate shard_as 2}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = stablehlo.negate %arg0 : tensor<8x16xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate shard_as 2}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0, %2 : tensor<8x16xf32>, tensor<8x16xf32>
  }
}

// -----

// `{unknown shard_as N}` on an argument and on an op's result: open, as any unknown sharding.
// CHECK-LABEL: module @shard_as_on_an_argument_and_an_op
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>
// CHECK-NEXT: func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
module @shard_as_on_an_argument_and_an_op attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}, %arg1: tensor<8x16xf32> {mhlo.sharding = "{unknown shard_as 3}"}) -> tensor<8x16xf32> {
    %0 = stablehlo.add %arg0, %arg1 {mhlo.sharding = "{unknown shard_as 3}"} : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
