// RUN: pysdy-opt %s -pysdy-xla-hand-off=route=gspmd | filecheck %s

// On the gspmd route, an optimization barrier's shardings go onto sharded copies of its results (XLA's translation
// gives a barrier one sharding for all its elements); every other op keeps its sharding as an mhlo.sharding, the
// loop among them, an op propagation left unsharded (the counter's) is written replicated, and the loop-invariant
// state the body returns unchanged is pinned with a copy.

// CHECK-LABEL: func.func @main(
// CHECK:         %0:3 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0, %iterArg_1 = %arg1) : tensor<i32>, tensor<8x16xf32>, tensor<8x16xf32> attributes {mhlo.sharding = "{{[{][{]}}replicated}, {devices=[2,4]<=[8]}, {devices=[2,1,4]<=[8] last_tile_dim_replicate}}"}
// CHECK:         } do {
// CHECK-NEXT:      %c_2 = stablehlo.constant {mhlo.sharding = "{replicated}"} dense<1> : tensor<i32>
// CHECK-NEXT:      %2 = stablehlo.add %iterArg, %c_2 {mhlo.sharding = "{replicated}"} : tensor<i32>
// CHECK-NEXT:    %3:2 = stablehlo.optimization_barrier %iterArg_0, %iterArg_1 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT:    %4 = mhlo.copy %3#0 {mhlo.sharding = "{devices=[2,4]<=[8]}"} : tensor<8x16xf32>
// CHECK-NEXT:    %5 = mhlo.copy %3#1 {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : tensor<8x16xf32>
// CHECK-NEXT:    %6 = stablehlo.multiply %5, %4 {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : tensor<8x16xf32>
// CHECK-NEXT:    %7 = mhlo.copy %iterArg_0 {mhlo.sharding = "{devices=[2,4]<=[8]}"} : tensor<8x16xf32>
// CHECK-NEXT:    stablehlo.return %2, %7, %6 : tensor<i32>, tensor<8x16xf32>, tensor<8x16xf32>
// CHECK:         %1 = stablehlo.negate %0#2 {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : tensor<8x16xf32>
// CHECK-NEXT:    return %1 : tensor<8x16xf32>
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:3 = stablehlo.while(%i = %c0, %w = %arg0, %acc = %arg1) : tensor<i32>, tensor<8x16xf32>, tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{"x"}, {"y"}]>, <@mesh, [{"x"}, {}]>]>}
  cond {
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %i, %c1 : tensor<i32>
    %2:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"x"}, {}]>]>} %w, %acc : tensor<8x16xf32>, tensor<8x16xf32>
    %3 = stablehlo.multiply %2#1, %2#0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
    stablehlo.return %1, %w, %3 : tensor<i32>, tensor<8x16xf32>, tensor<8x16xf32>
  }
  %4 = stablehlo.negate %0#2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}
