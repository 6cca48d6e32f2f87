// RUN: pysdy-opt %s -split-input-file -sdy-import-pipeline='dedup-functions-fully=true' 2>/dev/null | filecheck %s
// REQUIRES: !if_is_data_flow_op, !apply_sharding_constraints_needs_main

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 2 : i64}]}}
// CHECK-LABEL: func.func @main(%arg0: tensor<8x2xf32>, %arg1: tensor<i32>, %arg2: !stablehlo.token) -> tensor<8x2xf32> {
// CHECK-NEXT: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x2xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, []>]>}
// CHECK-NEXT: cond {
// CHECK-NEXT: %14 = sdy.constant dense<3> : tensor<i32>
// CHECK-NEXT: %15 = stablehlo.compare LT, %iterArg_0, %14 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %15 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %14 = stablehlo.add %iterArg, %iterArg : tensor<8x2xf32>
// CHECK-NEXT: stablehlo.return %14, %iterArg_0 : tensor<8x2xf32>, tensor<i32>
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
// CHECK-NEXT: %14 = sdy.data_flow_edge %arg3 : tensor<8x2xf32>
// CHECK-NEXT: sdy.return %14 : tensor<8x2xf32>
// CHECK-NEXT: } : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT: %10 = sdy.data_flow_edge %9 : tensor<8x2xf32>
// CHECK-NEXT: %11 = sdy.sharding_constraint %10 <@mesh, [{"a"}, {}]> : tensor<8x2xf32>
// CHECK-NEXT: %12 = sdy.manual_computation(%11) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg3: tensor<4x2xf32>) {
// CHECK-NEXT: %14 = sdy.data_flow_edge %arg3 sharding=<@mesh, [{}, {}]> : tensor<4x2xf32>
// CHECK-NEXT: sdy.return %14 : tensor<4x2xf32>
// CHECK-NEXT: } : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT: %13 = sdy.data_flow_edge %12 sharding=<@mesh, [{"a"}, {}]> : tensor<8x2xf32>
// CHECK-NEXT: return %13 : tensor<8x2xf32>
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

// -----

// CHECK: sdy.mesh @mesh_0 = <["x"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}]}}
// CHECK-NEXT: sdy.mesh @mesh_1 = <["x"=2], device_ids=[1, 0]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}], device_ids = dense<[1, 0]> : tensor<2xi64>}}
// CHECK-LABEL: func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{}, {}]>}) {
// CHECK-NEXT: %0:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh_0, [{"x"}, {}]>, <@mesh_0, [{}, {}]>]>} %arg0, %arg0 : tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.data_flow_edge %0#0 sharding=<@mesh_0, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.data_flow_edge %0#1 sharding=<@mesh_0, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %1 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @mesh(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x8xf32>
// CHECK-NEXT: }
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2], device_ids=[1,0]>, [{}, {}]>}) {
  %0:2 = "stablehlo.optimization_barrier"(%arg0, %arg0) {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2]>, [{"x"}, {}]>, <mesh<["x"=2]>, [{}, {}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %0#0 : tensor<8x8xf32>
}
func.func @mesh(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}
