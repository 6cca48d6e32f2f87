// RUN: pysdy-run %s --check --report | filecheck %s
// RUN: pysdy-run %s --route sdy --check --report | filecheck %s

// Branches returning values sharded on different axes: HLO's verifier rejects such a conditional on the sdy
// route, so the hand-off returns each branch's value constrained to the case's result sharding there. On the
// GSPMD route jaxlib's translation reshards each branch's value to the case's sharding itself. Both routes
// keep every sharding and compute the right values.

// CHECK-NOT:  dropped
// CHECK:      check against one device, shardings removed: passed

module @branches attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
    %0 = "stablehlo.case"(%arg0) ({
      %1 = stablehlo.sine %arg1 : tensor<8x8xf32>
      %2 = sdy.sharding_constraint %1 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
      stablehlo.return %2 : tensor<8x8xf32>
    }, {
      %1 = stablehlo.cosine %arg1 : tensor<8x8xf32>
      %2 = sdy.sharding_constraint %1 <@mesh, [{"y"}, {}]> : tensor<8x8xf32>
      stablehlo.return %2 : tensor<8x8xf32>
    }) : (tensor<i32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
