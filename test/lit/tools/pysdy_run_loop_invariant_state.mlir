// RUN: pysdy-run %s --check --report | filecheck %s
// RUN: pysdy-run %s --route sdy --check --report | filecheck %s

// A sharded loop whose body returns the weight %w unchanged: XLA's HLO translation lifts that operand out of
// the loop state but not out of the loop's tuple sharding, and rejects the loop. The hand-off returns %w
// through a sharding constraint to its loop sharding instead, so the loop keeps its sharding on both routes:
// nothing is dropped for XLA, no collective is needed, and the values are right.

// CHECK:      arg0 float32[8,16]     #sdy.sharding<@mesh, [{"x"}, {"y"}]> | {devices=[2,4]<=[8]}
// CHECK-NEXT: arg1 float32[8,16]     #sdy.sharding<@mesh, [{"x"}, {"y"}]> | {devices=[2,4]<=[8]}
// CHECK-NEXT: result0 float32[8,16]  #sdy.sharding<@mesh, [{"x"}, {"y"}]> | {devices=[2,4]<=[8]}
// CHECK:      collectives: none; 0 B sent per device
// CHECK-NOT:  changed for XLA
// CHECK:      check against one device, shardings removed: passed

module @loop attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                         %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%i = %c0, %w = %arg0, %acc = %arg1) : tensor<i32>, tensor<8x16xf32>, tensor<8x16xf32>
    cond {
      %c3 = stablehlo.constant dense<3> : tensor<i32>
      %1 = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c1 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %i, %c1 : tensor<i32>
      %2 = stablehlo.multiply %acc, %w : tensor<8x16xf32>
      %3 = stablehlo.tanh %2 : tensor<8x16xf32>
      stablehlo.return %1, %w, %3 : tensor<i32>, tensor<8x16xf32>, tensor<8x16xf32>
    }
    return %0#2 : tensor<8x16xf32>
  }
}
