// RUN: pysdy-opt %s -sdy-sink-data-flow-edges | filecheck %s

// Edge shardings move onto while/case/optimization_barrier results and named computation in/out shardings; edges without a sharding become fully open when a sibling has one.
// Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x6xf32>, %arg1: tensor<i32>, %arg2: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>) {
// CHECK-NEXT: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg2) : tensor<8x6xf32>, tensor<8x6xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>, <@mesh, [{?}, {?}]>]>}
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT: stablehlo.return %c : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: stablehlo.return %iterArg, %iterArg_0 : tensor<8x6xf32>, tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = "stablehlo.case"(%arg1) ({
// CHECK-NEXT: stablehlo.return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.return %arg2 : tensor<8x6xf32>
// CHECK-NEXT: }) : (tensor<i32>) -> tensor<8x6xf32>
// CHECK-NEXT: %2:2 = sdy.named_computation<"foo">(%0#0, %0#1) in_shardings=[<@mesh, [{?}, {"z"}], replicated={"y"}>, <@mesh, [{?}, {?}]>] out_shardings=[<@mesh, [{?}, {?}]>, <@mesh, [{"y"}, {}]>] (%arg3: tensor<8x6xf32>, %arg4: tensor<8x6xf32>) {
// CHECK-NEXT: %4 = stablehlo.add %arg3, %arg4 : tensor<8x6xf32>
// CHECK-NEXT: sdy.return %4, %arg3 : tensor<8x6xf32>, tensor<8x6xf32>
// CHECK-NEXT: } : (tensor<8x6xf32>, tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>)
// CHECK-NEXT: %3 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"z", ?}]>]>} %2#0 : tensor<8x6xf32>
// CHECK-NEXT: return %3, %2#1, %1, %0#1 : tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>
// CHECK-NEXT: }

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

func.func @main(%arg0: tensor<8x6xf32>, %arg1: tensor<i32>, %arg2: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>) {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg2) : tensor<8x6xf32>, tensor<8x6xf32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %iterArg, %iterArg_0 : tensor<8x6xf32>, tensor<8x6xf32>
  }
  %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"x", ?}, {?}]> : tensor<8x6xf32>
  %2 = sdy.data_flow_edge %0#1 : tensor<8x6xf32>
  %3 = "stablehlo.case"(%arg1) ({
    stablehlo.return %arg0 : tensor<8x6xf32>
  }, {
    stablehlo.return %arg2 : tensor<8x6xf32>
  }) : (tensor<i32>) -> tensor<8x6xf32>
  %4 = sdy.data_flow_edge %3 : tensor<8x6xf32>
  %5:2 = sdy.named_computation<"foo">(%1, %2) (%arg3: tensor<8x6xf32>, %arg4: tensor<8x6xf32>) {
    %7 = sdy.data_flow_edge %arg3 sharding=<@mesh, [{?}, {"z"}], replicated={"y"}> : tensor<8x6xf32>
    %8 = sdy.data_flow_edge %arg4 : tensor<8x6xf32>
    %9 = stablehlo.add %7, %8 : tensor<8x6xf32>
    sdy.return %9, %7 : tensor<8x6xf32>, tensor<8x6xf32>
  } : (tensor<8x6xf32>, tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>)
  %6 = sdy.data_flow_edge %5#0 : tensor<8x6xf32>
  %10 = sdy.data_flow_edge %5#1 sharding=<@mesh, [{"y"}, {}]> : tensor<8x6xf32>
  %11 = stablehlo.optimization_barrier %6 : tensor<8x6xf32>
  %12 = sdy.data_flow_edge %11 sharding=<@mesh, [{}, {"z", ?}]> : tensor<8x6xf32>
  return %12, %10, %4, %2 : tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>
}
