// RUN: pysdy-opt %s -split-input-file -sdy-add-data-flow-edges 2>/dev/null | filecheck %s

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=4, "c"=2]>
// CHECK-LABEL: func.func @nested(%arg0: tensor<16x8xf32>, %arg1: tensor<i32>, %arg2: !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token) {
// CHECK-NEXT: %0:2 = sdy.named_computation<"outer">(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, []>, <@mesh, []>] out_shardings=[<@mesh, [{"b", ?}, {}]>, <@mesh, []>] (%arg3: tensor<16x8xf32>, %arg4: tensor<i32>, %arg5: !stablehlo.token) {
// CHECK-NEXT: %5 = sdy.data_flow_edge %arg3 sharding=<@mesh, [{"a"}, {}]> : tensor<16x8xf32>
// CHECK-NEXT: %6 = sdy.data_flow_edge %arg4 sharding=<@mesh, []> : tensor<i32>
// CHECK-NEXT: %7:3 = stablehlo.while(%iterArg = %5, %iterArg_0 = %6, %iterArg_1 = %arg5) : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<3> : tensor<i32>
// CHECK-NEXT: %10 = stablehlo.compare LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %10 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %10 = sdy.manual_computation(%iterArg) in_shardings=[<@mesh, [{"a", "b":(1)2}, {"c"}], replicated={"b":(2)2}>] out_shardings=[<@mesh, [{"a", "b":(1)2, ?}, {}], unreduced={"c"}>] manual_axes={"a", "b"} (%arg6: tensor<4x8xf32>) {
// CHECK-NEXT: %12 = sdy.data_flow_edge %arg6 sharding=<@mesh, [{}, {"c"}]> : tensor<4x8xf32>
// CHECK-NEXT: %13 = stablehlo.add %12, %12 : tensor<4x8xf32>
// CHECK-NEXT: sdy.return %13 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: %11 = sdy.data_flow_edge %10 sharding=<@mesh, [{"a", "b":(1)2, ?}, {}], unreduced={"c"}> : tensor<16x8xf32>
// CHECK-NEXT: stablehlo.return %11, %iterArg_0, %iterArg_1 : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
// CHECK-NEXT: }
// CHECK-NEXT: %8 = sdy.data_flow_edge %7#0 : tensor<16x8xf32>
// CHECK-NEXT: %9 = sdy.data_flow_edge %7#1 : tensor<i32>
// CHECK-NEXT: sdy.return %8, %7#2 : tensor<16x8xf32>, !stablehlo.token
// CHECK-NEXT: } : (tensor<16x8xf32>, tensor<i32>, !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token)
// CHECK-NEXT: %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"b", ?}, {}]> : tensor<16x8xf32>
// CHECK-NEXT: %2:2 = "stablehlo.case"(%arg1) ({
// CHECK-NEXT: stablehlo.return %1, %arg1 : tensor<16x8xf32>, tensor<i32>
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.return %arg0, %arg1 : tensor<16x8xf32>, tensor<i32>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"c"}p0]>, <@mesh, []>]>} : (tensor<i32>) -> (tensor<16x8xf32>, tensor<i32>)
// CHECK-NEXT: %3 = sdy.data_flow_edge %2#0 sharding=<@mesh, [{}, {"c"}p0]> : tensor<16x8xf32>
// CHECK-NEXT: %4 = sdy.data_flow_edge %2#1 sharding=<@mesh, []> : tensor<i32>
// CHECK-NEXT: return %3, %0#1 : tensor<16x8xf32>, !stablehlo.token
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=4, "c"=2]>
func.func @nested(%arg0: tensor<16x8xf32>, %arg1: tensor<i32>, %t: !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token) {
  %0:2 = sdy.named_computation<"outer">(%arg0, %arg1, %t) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, []>, <@mesh, []>] out_shardings=[<@mesh, [{"b", ?}, {}]>, <@mesh, []>] (%x: tensor<16x8xf32>, %i: tensor<i32>, %tok: !stablehlo.token) {
    %1:3 = stablehlo.while(%iterArg = %x, %iterArg_0 = %i, %iterTok = %tok) : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
      cond {
      %c = stablehlo.constant dense<3> : tensor<i32>
      %2 = stablehlo.compare  LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2 = sdy.manual_computation(%iterArg) in_shardings=[<@mesh, [{"a", "b":(1)2}, {"c"}], replicated={"b":(2)2}>] out_shardings=[<@mesh, [{"a", "b":(1)2, ?}, {}], unreduced={"c"}>] manual_axes={"a", "b"} (%m: tensor<4x8xf32>) {
        %3 = stablehlo.add %m, %m : tensor<4x8xf32>
        sdy.return %3 : tensor<4x8xf32>
      } : (tensor<16x8xf32>) -> tensor<16x8xf32>
      stablehlo.return %2, %iterArg_0, %iterTok : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
    }
    sdy.return %1#0, %1#2 : tensor<16x8xf32>, !stablehlo.token
  } : (tensor<16x8xf32>, tensor<i32>, !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token)
  %4:2 = "stablehlo.case"(%arg1) ({
    stablehlo.return %0#0, %arg1 : tensor<16x8xf32>, tensor<i32>
  }, {
    stablehlo.return %arg0, %arg1 : tensor<16x8xf32>, tensor<i32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"c"}p0]>, <@mesh, []>]>} : (tensor<i32>) -> (tensor<16x8xf32>, tensor<i32>)
  return %4#0, %0#1 : tensor<16x8xf32>, !stablehlo.token
}

// -----

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.sharding_constraint %arg1 <@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
// CHECK-NEXT: %3 = stablehlo.multiply %0, %2 : tensor<8x8xf32>
// CHECK-NEXT: %4 = sdy.sharding_constraint %arg2 <@mesh, [{}, {"b"}], unreduced={"a"}> : tensor<8x8xf32>
// CHECK-NEXT: %5 = stablehlo.negate %arg2 : tensor<8x8xf32>
// CHECK-NEXT: %6 = stablehlo.abs %arg0 : tensor<8x8xf32>
// CHECK-NEXT: %7 = sdy.sharding_constraint %6 <@mesh, [{"b"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %8 = sdy.sharding_constraint %7 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %9 = stablehlo.add %6, %6 : tensor<8x8xf32>
// CHECK-NEXT: %10 = stablehlo.add %9, %8 : tensor<8x8xf32>
// CHECK-NEXT: %11 = sdy.manual_computation(%5) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg3: tensor<4x8xf32>) {
// CHECK-NEXT: %13 = sdy.data_flow_edge %arg3 sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
// CHECK-NEXT: sdy.return %13 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %12 = sdy.data_flow_edge %11 sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %10, %12 : tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %arg1 <@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
  %3 = stablehlo.multiply %0, %2 : tensor<8x8xf32>
  %4 = sdy.sharding_constraint %arg2 <@mesh, [{}, {"b"}], unreduced={"a"}> : tensor<8x8xf32>
  %5 = stablehlo.negate %arg2 : tensor<8x8xf32>
  %6 = stablehlo.abs %arg0 : tensor<8x8xf32>
  %7 = sdy.sharding_constraint %6 <@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  %8 = sdy.sharding_constraint %7 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %9 = stablehlo.add %6, %6 : tensor<8x8xf32>
  %10 = stablehlo.add %9, %8 : tensor<8x8xf32>
  %11 = sdy.manual_computation(%5) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%b: tensor<4x8xf32>) {
    sdy.return %b : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %10, %11 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<i32>) -> tensor<8x8xf32> {
// CHECK-NEXT: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<3> : tensor<i32>
// CHECK-NEXT: %8 = stablehlo.compare LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %8 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %8 = sdy.sharding_constraint %iterArg <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %9 = stablehlo.add %8, %iterArg : tensor<8x8xf32>
// CHECK-NEXT: stablehlo.return %9, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = sdy.data_flow_edge %0#0 : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.data_flow_edge %0#1 : tensor<i32>
// CHECK-NEXT: %3 = stablehlo.negate %1 : tensor<8x8xf32>
// CHECK-NEXT: %4 = sdy.sharding_constraint %1 <@mesh, [{"b"}, {}], unreduced={"a"}> : tensor<8x8xf32>
// CHECK-NEXT: %5 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"b"} (%arg2: tensor<4x8xf32>) {
// CHECK-NEXT: %8 = sdy.data_flow_edge %arg2 sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
// CHECK-NEXT: sdy.return %8 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %6 = sdy.data_flow_edge %5 sharding=<@mesh, [{"b"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %7 = stablehlo.add %4, %6 : tensor<8x8xf32>
// CHECK-NEXT: return %7 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<i32>) -> tensor<8x8xf32> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
    cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = sdy.sharding_constraint %iterArg <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
    %2 = stablehlo.add %1, %iterArg : tensor<8x8xf32>
    stablehlo.return %2, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  %5 = stablehlo.negate %0#0 : tensor<8x8xf32>
  %6 = sdy.sharding_constraint %0#0 <@mesh, [{"b"}, {}], unreduced={"a"}> : tensor<8x8xf32>
  %11 = sdy.manual_computation(%0#0) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"b"} (%b: tensor<4x8xf32>) {
    sdy.return %b : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %7 = stablehlo.add %6, %11 : tensor<8x8xf32>
  return %7 : tensor<8x8xf32>
}
