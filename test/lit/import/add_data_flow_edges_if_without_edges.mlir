// RUN: pysdy-opt %s -split-input-file -sdy-add-data-flow-edges 2>/dev/null | filecheck %s
// REQUIRES: !if_is_data_flow_op

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x2xf32>, %arg1: tensor<i32>, %arg2: !stablehlo.token) -> tensor<8x2xf32> {
// CHECK-NEXT: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x2xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, []>]>}
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<3> : tensor<i32>
// CHECK-NEXT: %13 = stablehlo.compare LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %13 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %13 = stablehlo.add %iterArg, %iterArg : tensor<8x2xf32>
// CHECK-NEXT: stablehlo.return %13, %iterArg_0 : tensor<8x2xf32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"a"}, {}]> : tensor<8x2xf32>
// CHECK-NEXT: %2 = sdy.data_flow_edge %0#1 sharding=<@mesh, []> : tensor<i32>
// CHECK-NEXT: %3 = "stablehlo.case"(%arg1) ({
// CHECK-NEXT: stablehlo.return %1 : tensor<8x2xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.return %arg0 : tensor<8x2xf32>
// CHECK-NEXT: }) : (tensor<i32>) -> tensor<8x2xf32>
// CHECK-NEXT: %4 = sdy.data_flow_edge %3 : tensor<8x2xf32>
// CHECK-NEXT: %5:2 = stablehlo.optimization_barrier %4, %arg2 : tensor<8x2xf32>, !stablehlo.token
// CHECK-NEXT: %6 = sdy.data_flow_edge %5#0 : tensor<8x2xf32>
// CHECK-NEXT: %7 = stablehlo.compare EQ, %arg1, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: %8 = "stablehlo.if"(%7) ({
// CHECK-NEXT: stablehlo.return %6 : tensor<8x2xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.return %arg0 : tensor<8x2xf32>
// CHECK-NEXT: }) : (tensor<i1>) -> tensor<8x2xf32>
// CHECK-NEXT: %9 = sdy.named_computation<"foo">(%8) (%arg3: tensor<8x2xf32>) {
// CHECK-NEXT: %13 = sdy.data_flow_edge %arg3 : tensor<8x2xf32>
// CHECK-NEXT: sdy.return %13 : tensor<8x2xf32>
// CHECK-NEXT: } : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT: %10 = sdy.data_flow_edge %9 : tensor<8x2xf32>
// CHECK-NEXT: %11 = sdy.manual_computation(%10) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg3: tensor<4x2xf32>) {
// CHECK-NEXT: %13 = sdy.data_flow_edge %arg3 sharding=<@mesh, [{}, {}]> : tensor<4x2xf32>
// CHECK-NEXT: sdy.return %13 : tensor<4x2xf32>
// CHECK-NEXT: } : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT: %12 = sdy.data_flow_edge %11 sharding=<@mesh, [{"a"}, {}]> : tensor<8x2xf32>
// CHECK-NEXT: return %12 : tensor<8x2xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x2xf32>, %arg1: tensor<i32>, %t: !stablehlo.token) -> (tensor<8x2xf32>) {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x2xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, []>]>}
    cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %iterArg : tensor<8x2xf32>
    stablehlo.return %1, %iterArg_0 : tensor<8x2xf32>, tensor<i32>
  }
  %2 = "stablehlo.case"(%arg1) ({
    stablehlo.return %0#0 : tensor<8x2xf32>
  }, {
    stablehlo.return %arg0 : tensor<8x2xf32>
  }) : (tensor<i32>) -> tensor<8x2xf32>
  %3:2 = stablehlo.optimization_barrier %2, %t : tensor<8x2xf32>, !stablehlo.token
  %p = stablehlo.compare EQ, %arg1, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %4 = "stablehlo.if"(%p) ({
    stablehlo.return %3#0 : tensor<8x2xf32>
  }, {
    stablehlo.return %arg0 : tensor<8x2xf32>
  }) : (tensor<i1>) -> tensor<8x2xf32>
  %5 = sdy.named_computation<"foo">(%4) (%a: tensor<8x2xf32>) {
    sdy.return %a : tensor<8x2xf32>
  } : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %6 = sdy.manual_computation(%5) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%b: tensor<4x2xf32>) {
    sdy.return %b : tensor<4x2xf32>
  } : (tensor<8x2xf32>) -> tensor<8x2xf32>
  return %6 : tensor<8x2xf32>
}
