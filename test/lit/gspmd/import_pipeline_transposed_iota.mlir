// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-import-pipeline 2>/dev/null | filecheck %s

// Tile assignments whose device order is a transpose or a reshape of the iota, as XLA itself exports them: the
// mesh is cut into the digits that every order is made of, and each sharding names the digits in its order
// (the expected text is what XLA's own import, run through jaxlib's compile, gives these modules).

// A transpose of a 3-digit reshape: dim 0 takes the middle digit, dim 1 the outer and the inner ones.
// CHECK-LABEL: module @transposed_three_digits
// CHECK-NEXT:  sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2, "_axis_2"=2]>
// CHECK-NEXT:  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0", "_axis_2"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0", "_axis_1", "_axis_2"}, {}]>}) -> tensor<8x16xf32> {
module @transposed_three_digits attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[2,2,2]T(1,0,2)}"}, %arg1: tensor<8x16xf32> {mhlo.sharding = "{devices=[8,1]<=[8]}"}) -> tensor<8x16xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

// The transpose of a [4,2] iota against its plain reshape: one mesh of two axes, named in opposite orders.
// CHECK-LABEL: module @transposed_against_reshaped
// CHECK-NEXT:  sdy.mesh @mesh = <["_axis_0"=4, "_axis_1"=2]>
// CHECK-NEXT:  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}) -> tensor<8x16xf32> {
module @transposed_against_reshaped attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[4,2]T(1,0)}"}, %arg1: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,2]<=[8]}"}) -> tensor<8x16xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

// A replicated transpose beside a dim tiled over all devices in a transposed order: the tiled dim reads the
// digits out of mesh order.
// CHECK-LABEL: module @replicated_transpose
// CHECK-NEXT:  sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2, "_axis_2"=2]>
// CHECK-NEXT:  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_2"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1", "_axis_2", "_axis_0"}, {}]>}) -> tensor<8x16xf32> {
module @replicated_transpose attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}"}, %arg1: tensor<8x16xf32> {mhlo.sharding = "{devices=[8,1]<=[2,4]T(1,0)}"}) -> tensor<8x16xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
