// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-export-pipeline=keep-hlo-sharding-constraints=true | filecheck %s

// Expected output: every `mhlo.sharding`, custom call and call below becomes, through XLA's HLO
// translation, the same HLO as jaxlib 0.10.2's own export of the input (test_export_pipeline.py
// compares the same inputs).

// CHECK: module @tiled attributes {mhlo.num_partitions = 8 : i32} {
// CHECK-LABEL: func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}, %arg1: tensor<8x16xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,1,2]6,7,4,5,2,3,0,1 last_tile_dim_replicate}"}) -> (tensor<8x16xf32> {mhlo.sharding = "{devices=[1,2,4]<=[8] last_tile_dim_replicate}"}, tensor<8x16xf32>) {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {mhlo.sharding = "{devices=[2,1,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}"} : tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.add %0, %arg2 {mhlo.sharding = "{devices=[1,1,4,2]<=[2,4]T(1,0) last_tile_dims={unreduced, replicated}}"} : tensor<8x16xf32>
// CHECK-NEXT: return %1, %arg1 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }

module @tiled attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  sdy.mesh @ids = <["a"=4, "b"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@ids, [{"a"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, tensor<8x16xf32>) {
    %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y":(1)2}, {}], replicated={"x"}>]>} : tensor<8x16xf32>
    %1 = stablehlo.add %0, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>} : tensor<8x16xf32>
    return %1, %arg1 : tensor<8x16xf32>, tensor<8x16xf32>
  }
}

// -----

// CHECK: module @maximal_and_tuple attributes {mhlo.num_partitions = 8 : i32} {
// CHECK-LABEL: func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
// CHECK-NEXT: %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = false}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<f32>, %arg5: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.compare GT, %arg2, %arg3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %2 : tensor<i1>
// CHECK-NEXT: }) {mhlo.sharding = "{{[{][{]}}devices=[1,8]<=[8]}, {devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}}"} : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK-NEXT: %1 = stablehlo.multiply %0#1, %0#1 {mhlo.sharding = "{maximal device=3}"} : tensor<8x16xf32>
// CHECK-NEXT: return %0#0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }

module @maximal_and_tuple attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  sdy.mesh @maximal = <[], device_ids=[3]>
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
    %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = false}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
        %p = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x", "y"}]>, <@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
    %1 = stablehlo.multiply %0#1, %0#1 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : tensor<8x16xf32>
    return %0#0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
  }
}

// -----

// CHECK: module @constraints attributes {mhlo.num_partitions = 8 : i32} {
// CHECK-LABEL: func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %cst = stablehlo.constant {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} dense<1.000000e+00> : tensor<8x16xf32>
// CHECK-NEXT: %2 = stablehlo.add %1, %cst {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : tensor<8x16xf32>
// CHECK-NEXT: %3 = mhlo.copy %2 {mhlo.sharding = "{replicated}"} : tensor<8x16xf32>
// CHECK-NEXT: return %3 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }

module @constraints attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"y"}, {}]> : tensor<8x16xf32>
    %1 = sdy.reshard %0 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
    %2 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<1.0> : tensor<8x16xf32>
    %3 = sdy.propagation_barrier %2 allowed_direction=NONE : tensor<8x16xf32>
    %4 = stablehlo.add %1, %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x16xf32>
    %5 = sdy.all_gather [{}, {"y"}] %4 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
    %6 = sdy.all_reduce {"x"} %5 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
    return %6 : tensor<8x16xf32>
  }
}

// -----

// CHECK: module @manual_computations attributes {mhlo.num_partitions = 8 : i32} {
// CHECK-LABEL: func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : (tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %2 = call @xla.sdy.inlinable_manual_computation_body_0(%1) {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %5 = stablehlo.custom_call @Sharding(%4) {mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %6 = stablehlo.custom_call @SPMDFullToShardShape(%5) {mhlo.sharding = "{manual}"} : (tensor<8x16xf32>) -> tensor<1x16xf32>
// CHECK-NEXT: %7 = call @xla.sdy.inlinable_manual_computation_body_1(%6) {mhlo.sharding = "{manual}"} : (tensor<1x16xf32>) -> tensor<1x16xf32>
// CHECK-NEXT: %8 = stablehlo.custom_call @Sharding(%7) {mhlo.sharding = "{manual}"} : (tensor<1x16xf32>) -> tensor<1x16xf32>
// CHECK-NEXT: %9 = stablehlo.custom_call @SPMDShardToFullShape(%8) {mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<1x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %9 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK: func.func private @helper(%arg0: tensor<4x16xf32> {mhlo.sharding = "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"}) -> (tensor<4x16xf32> {mhlo.sharding = "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"}) {
// CHECK-NEXT: %0 = stablehlo.abs %arg0 {mhlo.sharding = "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"} : tensor<4x16xf32>
// CHECK-NEXT: return %0 : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK: func.func private @xla.sdy.inlinable_manual_computation_body(%arg0: tensor<4x4xf32> {mhlo.sharding = "{manual}"}) -> (tensor<4x4xf32> {mhlo.sharding = "{manual}"}) {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {mhlo.sharding = "{manual}"} : tensor<4x4xf32>
// CHECK-NEXT: return %0 : tensor<4x4xf32>
// CHECK-NEXT: }
// CHECK: func.func private @xla.sdy.inlinable_manual_computation_body_0(%arg0: tensor<4x16xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dims={manual}}"}) -> (tensor<4x16xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dims={manual}}"}) {
// CHECK-NEXT: %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<4x16xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %2 = call @xla.sdy.inlinable_manual_computation_body(%1) {mhlo.sharding = "{manual}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : (tensor<4x4xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %5 = call @helper(%4) {mhlo.sharding = "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %5 : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK: func.func private @xla.sdy.inlinable_manual_computation_body_1(%arg0: tensor<1x16xf32> {mhlo.sharding = "{manual}"}) -> (tensor<1x16xf32> {mhlo.sharding = "{manual}"}) {
// CHECK-NEXT: return %arg0 : tensor<1x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }

module @manual_computations attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x"} (%a: tensor<4x16xf32>) {
      %1 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{}, {"y"}]>] manual_axes={"y"} (%b: tensor<4x4xf32>) {
        %2 = stablehlo.negate %b : tensor<4x4xf32>
        sdy.return %2 : tensor<4x4xf32>
      } : (tensor<4x16xf32>) -> tensor<4x16xf32>
      %3 = func.call @helper(%1) : (tensor<4x16xf32>) -> tensor<4x16xf32>
      sdy.return %3 : tensor<4x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %4 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x", "y"}, {}]>] manual_axes={"x", "y"} (%c: tensor<1x16xf32>) {
      sdy.return %c : tensor<1x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %4 : tensor<8x16xf32>
  }
  func.func private @helper(%arg0: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %0 = stablehlo.abs %arg0 : tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
}

// -----

// A move to unreduced axes and an all-reduce of them: each a fully manual computation of StableHLO ops, called
// between @SPMDFullToShardShape and @SPMDShardToFullShape.
// CHECK: module @unreduced_all_reduce attributes {mhlo.num_partitions = 8 : i32} {
// CHECK-NEXT: func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[8,1]<=[8]}"}) -> (tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}) {
// CHECK-NEXT: %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x16xf32>) -> tensor<1x16xf32>
// CHECK-NEXT: %2 = call @xla.sdy.inlinable_manual_computation_body(%1) {mhlo.sharding = "{manual}"} : (tensor<1x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dims={unreduced}}"} : (tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %5 = stablehlo.negate %4 {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dims={unreduced}}"} : tensor<8x16xf32>
// CHECK-NEXT: %6 = stablehlo.custom_call @Sharding(%5) {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dims={unreduced}}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %7 = stablehlo.custom_call @SPMDFullToShardShape(%6) {mhlo.sharding = "{manual}"} : (tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %8 = call @xla.sdy.inlinable_manual_computation_body_0(%7) {mhlo.sharding = "{manual}"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %9 = stablehlo.custom_call @Sharding(%8) {mhlo.sharding = "{manual}"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %10 = stablehlo.custom_call @SPMDShardToFullShape(%9) {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %10 : tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @xla.sdy.inlinable_manual_computation_body(%arg0: tensor<1x16xf32> {mhlo.sharding = "{manual}"}) -> (tensor<4x16xf32> {mhlo.sharding = "{manual}"}) {
// CHECK-NEXT: %cst = stablehlo.constant {mhlo.sharding = "{manual}"} dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %0 = stablehlo.broadcast %cst, sizes = [4, 16] {mhlo.sharding = "{manual}"} : (tensor<f32>) -> tensor<4x16xf32>
// CHECK-NEXT: %1 = stablehlo.partition_id {mhlo.sharding = "{manual}"} : tensor<ui32>
// CHECK-NEXT: %2 = stablehlo.convert %1 {mhlo.sharding = "{manual}"} : (tensor<ui32>) -> tensor<i32>
// CHECK-NEXT: %c = stablehlo.constant {mhlo.sharding = "{manual}"} dense<4> : tensor<i32>
// CHECK-NEXT: %3 = stablehlo.remainder %2, %c {mhlo.sharding = "{manual}"} : tensor<i32>
// CHECK-NEXT: %4 = stablehlo.divide %2, %c {mhlo.sharding = "{manual}"} : tensor<i32>
// CHECK-NEXT: %c_0 = stablehlo.constant {mhlo.sharding = "{manual}"} dense<2> : tensor<i32>
// CHECK-NEXT: %5 = stablehlo.remainder %4, %c_0 {mhlo.sharding = "{manual}"} : tensor<i32>
// CHECK-NEXT: %6 = stablehlo.divide %4, %c_0 {mhlo.sharding = "{manual}"} : tensor<i32>
// CHECK-NEXT: %c_1 = stablehlo.constant {mhlo.sharding = "{manual}"} dense<0> : tensor<i32>
// CHECK-NEXT: %c_2 = stablehlo.constant {mhlo.sharding = "{manual}"} dense<1> : tensor<i32>
// CHECK-NEXT: %7 = stablehlo.multiply %3, %c_2 {mhlo.sharding = "{manual}"} : tensor<i32>
// CHECK-NEXT: %8 = stablehlo.dynamic_update_slice %0, %arg0, %7, %c_1 {mhlo.sharding = "{manual}"} : (tensor<4x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %8 : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @xla.sdy.inlinable_manual_computation_body_0(%arg0: tensor<4x16xf32> {mhlo.sharding = "{manual}"}) -> (tensor<4x16xf32> {mhlo.sharding = "{manual}"}) {
// CHECK-NEXT: %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK-NEXT: %1 = stablehlo.add %arg1, %arg2 {mhlo.sharding = "{manual}"} : tensor<f32>
// CHECK-NEXT: stablehlo.return %1 : tensor<f32>
// CHECK-NEXT: }) {mhlo.sharding = "{manual}"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %0 : tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }

module @unreduced_all_reduce attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %0 = sdy.sharded_to_unreduced [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x16xf32>
    %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}], unreduced={"y"}>]>} : tensor<8x16xf32>
    %2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
}
