// RUN: pysdy-run %s --check --report | filecheck %s

// A bias of shape 1x32 broadcast to 16x32: jaxlib's HLO translation makes of it a broadcast of the operand to
// itself carrying the result's sharding (its size-1 dimension split over "x"), a reshape and the real
// broadcast; GSPMD then pads, permutes and all-reduces the bias (96 B per device). The hand-off splits it into a
// reshape sharded like the bias and a broadcast sharded like the result: no collective, as XLA's own route.

// CHECK:      arg1 float32[1,32]      #sdy.sharding<@mesh, [{}, {"y"}]> | {devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}
// CHECK:      collectives: none; 0 B sent per device
// CHECK:      check against one device, shardings removed: passed

module @bias attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                         %arg1: tensor<1x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<16x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<16x32xf32>
    return %1 : tensor<16x32xf32>
  }
}
