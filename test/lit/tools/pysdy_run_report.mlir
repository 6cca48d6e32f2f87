// RUN: pysdy-run %s --devices 8 --check --report | filecheck %s
// RUN: pysdy-run %s --route sdy --check --report json | filecheck %s --check-prefix=JSON

// A matmul whose contracting dimension is sharded on "y": every route needs a reduction over "y",
// groups of 4 devices with the same "x" index.

// CHECK:      result0 float32[8,4]:
// CHECK:      route:    gspmd (pysdy-inline-calls,sdy-propagation-pipeline,xla-sdy-stablehlo-export-pipeline, then XLA)
// CHECK-NEXT: devices:  8 (cpu:0, cpu:1, cpu:2, cpu:3, cpu:4, cpu:5, cpu:6, cpu:7)
// CHECK:      arg0 float32[8,16]   #sdy.sharding<@mesh, [{"x"}, {"y"}]> | {devices=[2,4]<=[8]}
// CHECK-NEXT: arg1 float32[16,4]   #sdy.sharding<@mesh, [{"y"}, {}]> | {devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}
// CHECK-NEXT: result0 float32[8,4] #sdy.sharding<@mesh, [{"x"}, {}]> | {devices=[2,1,4]<=[8] last_tile_dim_replicate}
// CHECK:      memory per device:
// CHECK-NEXT:   argument              128 B
// CHECK:      collectives: 1 all-reduce;
// CHECK-NEXT:   all-reduce {{.*}} groups {{[{][{]}}0,1,2,3},{4,5,6,7}}
// CHECK:      check against one device, shardings removed: passed

// JSON:      "route": "sdy",
// JSON:      "collective_counts": {
// JSON-NEXT:   "all-reduce": 1
// JSON:      "check": {
// JSON-NEXT:   "reference": "one device, shardings removed",
// JSON-NEXT:   "passed": true,

module @matmul attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                         %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x4xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
