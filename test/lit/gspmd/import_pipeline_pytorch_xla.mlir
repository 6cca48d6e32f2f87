// RUN: pysdy-opt %s -xla-sdy-stablehlo-import-pipeline -sdy-propagation-pipeline 2>/dev/null | filecheck %s
// RUN: pysdy-opt %s -xla-sdy-stablehlo-import-pipeline -sdy-propagation-pipeline -xla-sdy-stablehlo-export-pipeline 2>/dev/null | filecheck %s --check-prefix=EXPORT

// PyTorch/XLA style: the parameters carry no sharding; `Sharding` custom calls (device lists) and an intermediate op do.
// After import, propagation shards the parameters, the add's other operand and the result from them.
// CHECK-LABEL: module @pytorch_xla
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>
// CHECK-NEXT: func.func @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}, %arg1: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {}]>}, %arg2: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}) -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}) {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"_axis_0"}, {"_axis_1"}]> : tensor<16x32xf32>
// CHECK-NEXT: %1 = sdy.reshard %arg1 <@mesh, [{"_axis_1"}, {}]> : tensor<32x8xf32>
// CHECK-NEXT: %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0"}, {}]>]>} : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: %3 = stablehlo.add %2, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0"}, {}]>]>} : tensor<16x8xf32>
// CHECK-NEXT: %4 = stablehlo.tanh %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0"}, {}]>]>} : tensor<16x8xf32>
// CHECK-NEXT: return %4 : tensor<16x8xf32>

// Exported back to GSPMD: the device lists are iotas on the recovered mesh, each
// reshard a copy carrying its sharding, and the propagated shardings on every op.
// EXPORT-LABEL: module @pytorch_xla
// EXPORT-NEXT: func.func @main(%arg0: tensor<16x32xf32> {mhlo.sharding = "{devices=[2,2]<=[4]}"}, %arg1: tensor<32x8xf32> {mhlo.sharding = "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}, %arg2: tensor<16x8xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}) -> (tensor<16x8xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}) {
// EXPORT-NEXT: %0 = mhlo.copy %arg0 {mhlo.sharding = "{devices=[2,2]<=[4]}"} : tensor<16x32xf32>
// EXPORT-NEXT: %1 = mhlo.copy %arg1 {mhlo.sharding = "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : tensor<32x8xf32>
// EXPORT-NEXT: %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0] {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
// EXPORT-NEXT: %3 = stablehlo.add %2, %arg2 {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : tensor<16x8xf32>
// EXPORT-NEXT: %4 = stablehlo.tanh %3 {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : tensor<16x8xf32>
// EXPORT-NEXT: return %4 : tensor<16x8xf32>
module @pytorch_xla attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%arg0: tensor<16x32xf32>, %arg1: tensor<32x8xf32>, %arg2: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,2]0,1,2,3}"} : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %1 = stablehlo.custom_call @Sharding(%arg1) {mhlo.sharding = "{devices=[2,1,2]0,2,1,3 last_tile_dim_replicate}"} : (tensor<32x8xf32>) -> tensor<32x8xf32>
    %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0] {mhlo.sharding = "{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}"} : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
    %3 = stablehlo.add %2, %arg2 : tensor<16x8xf32>
    %4 = stablehlo.tanh %3 : tensor<16x8xf32>
    return %4 : tensor<16x8xf32>
  }
}
