// RUN: pysdy-opt %s -split-input-file -sdy-import-pipeline='dedup-functions-fully=true' 2>/dev/null | filecheck %s

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 2 : i64}]}}
// CHECK-NEXT: sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]> {stablehlo.mesh = {axes = [], device_ids = dense<0> : tensor<1xi64>}}
// CHECK-LABEL: func.func private @foo(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) {
// CHECK-NEXT: %0 = stablehlo.abs %arg0 : tensor<8xf32>
// CHECK-NEXT: return %0 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
// CHECK-NEXT: %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = call @bar(%0) {mhlo.frontend_attributes = {inlineable = "false"}} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %2:2 = call @baz(%1) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT: %3 = call @foo(%2#0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %3, %2#1 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @bar(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = call @qux(%0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %1 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @qux(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 : tensor<8xf32>
// CHECK-NEXT: return %0 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @baz(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) {
// CHECK-NEXT: return %arg0, %arg0 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func private @foo(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @bar(%0) {mhlo.frontend_attributes = {inlineable = "false"}} : (tensor<8xf32>) -> tensor<8xf32>
  %2:2 = call @baz(%1) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  %3 = call @foo(%2#0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %3, %2#1 : tensor<8xf32>, tensor<8xf32>
}
func.func private @bar(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @qux(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @qux(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @baz(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[0]>, []>}) {
  return %arg0, %arg0 : tensor<8xf32>, tensor<8xf32>
}
func.func private @unused(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @qux(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func private @p(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: return %arg0 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @q(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = call @p(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %0 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @r(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = call @q(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = call @p(%0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %1 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = call @q(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = call @r(%0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %2 = call @r(%1) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %3 = "stablehlo.case"(%arg1) ({
// CHECK-NEXT: %5 = func.call @r(%2) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: stablehlo.return %5 : tensor<8xf32>
// CHECK-NEXT: }) : (tensor<i32>) -> tensor<8xf32>
// CHECK-NEXT: %4 = sdy.data_flow_edge %3 : tensor<8xf32>
// CHECK-NEXT: return %4 : tensor<8xf32>
// CHECK-NEXT: }
func.func private @p(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func @q(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @p(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @r(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @q(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @p(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
  %0 = call @q(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @r(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @r(%1) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = "stablehlo.case"(%arg1) ({
    %4 = call @r(%2) : (tensor<8xf32>) -> tensor<8xf32>
    stablehlo.return %4 : tensor<8xf32>
  }) : (tensor<i32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}
func.func private @ext(%arg0: tensor<8xf32>) -> tensor<8xf32>

// -----

// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = sdy.named_computation<"pre">(%arg0) (%arg1: tensor<8xf32>) {
// CHECK-NEXT: %2 = sdy.data_flow_edge %arg1 : tensor<8xf32>
// CHECK-NEXT: %3 = func.call @p(%2) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: sdy.return %3 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = sdy.data_flow_edge %0 : tensor<8xf32>
// CHECK-NEXT: return %1 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @p(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: return %arg0 : tensor<8xf32>
// CHECK-NEXT: }
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"pre">(%arg0) (%a: tensor<8xf32>) {
    %1 = func.call @p(%a) : (tensor<8xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @p(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK: sdy.mesh @mesh = <["a"=2]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}]}}
// CHECK-LABEL: func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
// CHECK-NEXT: %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %2 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %3 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: %4 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %4 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: %5 = sdy.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
// CHECK-NEXT: %7 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
// CHECK-NEXT: %8 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
// CHECK-NEXT: %9 = call @const_fn_0() : () -> tensor<8x8xf32>
// CHECK-NEXT: %10 = stablehlo.add %9, %3 : tensor<8x8xf32>
// CHECK-NEXT: %11 = stablehlo.add %arg0, %1 : tensor<8x8xf32>
// CHECK-NEXT: %12 = stablehlo.multiply %11, %2 : tensor<8x8xf32>
// CHECK-NEXT: %13 = stablehlo.multiply %12, %6 : tensor<8x8xf32>
// CHECK-NEXT: %14 = stablehlo.add %13, %7 : tensor<8x8xf32>
// CHECK-NEXT: %15 = stablehlo.add %14, %8 : tensor<8x8xf32>
// CHECK-NEXT: %16 = stablehlo.add %15, %10 : tensor<8x8xf32>
// CHECK-NEXT: %17 = call @non_const(%16) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %18 = sdy.named_computation<"nc">(%4) (%arg1: tensor<8x8xf32>) {
// CHECK-NEXT: %27 = sdy.data_flow_edge %arg1 : tensor<8x8xf32>
// CHECK-NEXT: %28 = sdy.constant dense<3.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %29 = sdy.constant dense<3.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %30 = stablehlo.add %27, %28 : tensor<8x8xf32>
// CHECK-NEXT: %31 = stablehlo.add %30, %29 : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %31 : tensor<8x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %19 = sdy.data_flow_edge %18 : tensor<8x8xf32>
// CHECK-NEXT: %20 = stablehlo.add %19, %4 : tensor<8x8xf32>
// CHECK-NEXT: %21 = sdy.named_computation<"cnc">() () {
// CHECK-NEXT: %27 = stablehlo.iota dim = 0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %27 : tensor<8x8xf32>
// CHECK-NEXT: } : () -> tensor<8x8xf32>
// CHECK-NEXT: %22 = sdy.data_flow_edge %21 : tensor<8x8xf32>
// CHECK-NEXT: %23 = sdy.named_computation<"cnc">() () {
// CHECK-NEXT: %27 = stablehlo.iota dim = 0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %27 : tensor<8x8xf32>
// CHECK-NEXT: } : () -> tensor<8x8xf32>
// CHECK-NEXT: %24 = sdy.data_flow_edge %23 : tensor<8x8xf32>
// CHECK-NEXT: %25 = stablehlo.add %22, %arg0 : tensor<8x8xf32>
// CHECK-NEXT: %26 = stablehlo.add %24, %25 : tensor<8x8xf32>
// CHECK-NEXT: return %17, %20, %26 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @non_const(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %2 = stablehlo.add %arg0, %0 : tensor<8x8xf32>
// CHECK-NEXT: %3 = stablehlo.add %2, %1 : tensor<8x8xf32>
// CHECK-NEXT: return %3 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @const_fn_0() -> tensor<8x8xf32> attributes {sdy.original_func_name = "const_fn"} {
// CHECK-NEXT: %0 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.negate %0 : tensor<8x8xf32>
// CHECK-NEXT: return %1 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8x8xf32>
  %s = stablehlo.constant dense<2.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %sc = sdy.sharding_constraint %c <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  sdy.sharding_group %c group_id=3 : tensor<8x8xf32>
  %k = call @const_fn() : () -> tensor<8x8xf32>
  %k2 = stablehlo.add %k, %c : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8x8xf32>
  %1 = stablehlo.multiply %0, %c : tensor<8x8xf32>
  %2 = stablehlo.multiply %1, %b : tensor<8x8xf32>
  %3 = stablehlo.add %2, %b : tensor<8x8xf32>
  %4 = stablehlo.add %3, %sc : tensor<8x8xf32>
  %5 = stablehlo.add %4, %k2 : tensor<8x8xf32>
  %6 = call @non_const(%5) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %7 = sdy.named_computation<"nc">(%c) (%x: tensor<8x8xf32>) {
    %d = stablehlo.constant dense<3.0> : tensor<8x8xf32>
    %e = stablehlo.add %x, %d : tensor<8x8xf32>
    %f = stablehlo.add %e, %d : tensor<8x8xf32>
    sdy.return %f : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %8 = stablehlo.add %7, %c : tensor<8x8xf32>
  %9 = sdy.named_computation<"cnc">() () {
    %d = stablehlo.iota dim = 0 : tensor<8x8xf32>
    sdy.return %d : tensor<8x8xf32>
  } : () -> tensor<8x8xf32>
  %10 = stablehlo.add %9, %arg0 : tensor<8x8xf32>
  %11 = stablehlo.add %9, %10 : tensor<8x8xf32>
  return %6, %8, %11 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
func.func private @const_fn() -> tensor<8x8xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<8x8xf32>
  %d = stablehlo.negate %c : tensor<8x8xf32>
  return %d : tensor<8x8xf32>
}
func.func private @non_const(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8x8xf32>
  %1 = stablehlo.add %0, %c : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT: %1 = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT: %2 = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT: %3 = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT: %4:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8xf32>, tensor<i32>
// CHECK-NEXT: cond {
// CHECK-NEXT: %13 = sdy.constant dense<3> : tensor<i32>
// CHECK-NEXT: %14 = stablehlo.compare LT, %iterArg_0, %13 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %14 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %13 = stablehlo.add %iterArg, %0 : tensor<8xf32>
// CHECK-NEXT: %14 = stablehlo.add %13, %1 : tensor<8xf32>
// CHECK-NEXT: stablehlo.return %14, %iterArg_0 : tensor<8xf32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: %5 = sdy.data_flow_edge %4#0 : tensor<8xf32>
// CHECK-NEXT: %6 = sdy.data_flow_edge %4#1 : tensor<i32>
// CHECK-NEXT: %7 = stablehlo.reshape %2 : (tensor<8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %8 = stablehlo.reshape %3 : (tensor<8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %9 = stablehlo.reshape %7 : (tensor<2x4xf32>) -> tensor<8xf32>
// CHECK-NEXT: %10 = stablehlo.reshape %8 : (tensor<2x4xf32>) -> tensor<8xf32>
// CHECK-NEXT: %11 = stablehlo.add %5, %9 : tensor<8xf32>
// CHECK-NEXT: %12 = stablehlo.add %11, %10 : tensor<8xf32>
// CHECK-NEXT: return %12 : tensor<8xf32>
// CHECK-NEXT: }
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8xf32>, tensor<i32>
    cond {
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg_0, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %c : tensor<8xf32>
    %2 = stablehlo.add %1, %c : tensor<8xf32>
    stablehlo.return %2, %iterArg_0 : tensor<8xf32>, tensor<i32>
  }
  %r = stablehlo.reshape %c : (tensor<8xf32>) -> tensor<2x4xf32>
  %r2 = stablehlo.reshape %r : (tensor<2x4xf32>) -> tensor<8xf32>
  %3 = stablehlo.add %0#0, %r2 : tensor<8xf32>
  %4 = stablehlo.add %3, %r2 : tensor<8xf32>
  return %4 : tensor<8xf32>
}

// -----

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=4, "c"=2]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 4 : i64}, {name = "c", size = 2 : i64}]}}
// CHECK-LABEL: func.func @nested(%arg0: tensor<16x8xf32>, %arg1: tensor<i32>, %arg2: !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token) {
// CHECK-NEXT: %0:2 = sdy.named_computation<"outer">(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, []>, <@mesh, []>] out_shardings=[<@mesh, [{"b", ?}, {}]>, <@mesh, []>] (%arg3: tensor<16x8xf32>, %arg4: tensor<i32>, %arg5: !stablehlo.token) {
// CHECK-NEXT: %5 = sdy.data_flow_edge %arg3 sharding=<@mesh, [{"a"}, {}]> : tensor<16x8xf32>
// CHECK-NEXT: %6 = sdy.data_flow_edge %arg4 sharding=<@mesh, []> : tensor<i32>
// CHECK-NEXT: %7:3 = stablehlo.while(%iterArg = %5, %iterArg_0 = %6, %iterArg_1 = %arg5) : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
// CHECK-NEXT: cond {
// CHECK-NEXT: %10 = sdy.constant dense<3> : tensor<i32>
// CHECK-NEXT: %11 = stablehlo.compare LT, %iterArg_0, %10 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %11 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %10 = sdy.sharding_constraint %iterArg <@mesh, [{"a", "b":(1)2}, {"c"}], replicated={"b":(2)2}> : tensor<16x8xf32>
// CHECK-NEXT: %11 = sdy.manual_computation(%10) in_shardings=[<@mesh, [{"a", "b":(1)2}, {"c"}], replicated={"b":(2)2}>] out_shardings=[<@mesh, [{"a", "b":(1)2, ?}, {}], replicated={"b":(2)2}, unreduced={"c"}>] manual_axes={"a", "b"} (%arg6: tensor<4x8xf32>) {
// CHECK-NEXT: %13 = sdy.data_flow_edge %arg6 sharding=<@mesh, [{}, {"c"}]> : tensor<4x8xf32>
// CHECK-NEXT: %14 = stablehlo.add %13, %13 : tensor<4x8xf32>
// CHECK-NEXT: sdy.return %14 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: %12 = sdy.data_flow_edge %11 sharding=<@mesh, [{"a", "b":(1)2, ?}, {}], replicated={"b":(2)2}, unreduced={"c"}> : tensor<16x8xf32>
// CHECK-NEXT: stablehlo.return %12, %iterArg_0, %iterArg_1 : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
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

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 2 : i64}]}}
// CHECK-NEXT: sdy.mesh @other = <["c"=4]> {stablehlo.mesh = {axes = [{name = "c", size = 4 : i64}]}}
// CHECK-NEXT: sdy.mesh @mesh_1 = <["x"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}]}}
// CHECK-NEXT: sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]> {stablehlo.mesh = {axes = [], device_ids = dense<3> : tensor<1xi64>}}
// CHECK-NEXT: sdy.mesh @mesh_2 = <["y"=2]> {stablehlo.mesh = {axes = [{name = "y", size = 2 : i64}]}}
// CHECK-NEXT: sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
// CHECK-NEXT: sdy.mesh @mesh_3 = <["y"=2, "z"=2, "w"=2]> {stablehlo.mesh = {axes = [{name = "y", size = 2 : i64}, {name = "z", size = 2 : i64}, {name = "w", size = 2 : i64}]}}
// CHECK-LABEL: func.func @mesh_0(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_3, []>}) {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharding_constraint %0 <@mesh_2, [{"y"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.sharding_constraint %1 <@empty_mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.manual_computation(%2) in_shardings=[<@mesh_3, [{"y", "z"}, {}], replicated={"w"}>] out_shardings=[<@mesh_3, [{"y"}, {}]>] manual_axes={"y"} (%arg2: tensor<4x8xf32>) {
// CHECK-NEXT: %5 = sdy.data_flow_edge %arg2 sharding=<@mesh_3, [{"z"}, {}], replicated={"w"}> : tensor<4x8xf32>
// CHECK-NEXT: sdy.return %5 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %4 = sdy.data_flow_edge %3 sharding=<@mesh_3, [{"y"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %4 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @dup = <["a"=2, "b"=2]>
sdy.mesh @other = <["c"=4]>
func.func @mesh_0(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@dup, [{"a"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[3]>, []>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["a"=2, "b"=2]>, [{"b"}, {}]>]>} : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <mesh<["y"=2]>, [{"y"}, {}]> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <mesh<[]>, [{}, {}]> : tensor<8x8xf32>
  %3 = sdy.manual_computation(%2) in_shardings=[<mesh<["y"=2, "z"=2, "w"=2]>, [{"y", "z"}, {}], replicated={"w"}>] out_shardings=[<mesh<["y"=2, "z"=2, "w"=2]>, [{"y"}, {}]>] manual_axes={"y"} (%b: tensor<4x8xf32>) {
    sdy.return %b : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// -----

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]> {foo = 1 : i32, stablehlo.mesh = {axes = [{name = "q", size = 4 : i64}]}}
// CHECK-NEXT: sdy.mesh @mesh2 = <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 2 : i64}], device_ids = dense<[3, 2, 1, 0]> : tensor<4xi64>}}
// CHECK-NEXT: sdy.mesh @mesh3 = <[], device_ids=[5]> {stablehlo.mesh = {axes = [], device_ids = dense<5> : tensor<1xi64>}}
// CHECK-NEXT: sdy.mesh @mesh_0 = <["x"=2], device_ids=[1, 0]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}], device_ids = dense<[1, 0]> : tensor<2xi64>}}
// CHECK-LABEL: func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{"x"}, {}]>}) -> tensor<8x8xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=2]> {foo = 1 : i32, stablehlo.mesh = {axes = [{name = "q", size = 4 : i64}]}}
sdy.mesh @mesh2 = <["a"=2, "b"=2], device_ids=[3,2,1,0]> 
sdy.mesh @mesh3 = <[], device_ids=[5]> 
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2], device_ids=[1,0]>, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 2 : i64}, {name = "c", size = 2 : i64}]}}
// CHECK-LABEL: func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {}], replicated={"a"}>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", "b"}, {"a"}]>}) -> tensor<8x8xf32> {
// CHECK-NEXT: %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"c"}, {}], replicated={"a"}>, <@mesh, [{"c", "b"}, {"a"}]>] out_shardings=[<@mesh, [{"c"}, {}], replicated={"a"}>, <@mesh, [{"c"}, {}], replicated={"a"}>] manual_axes={"a", "c"} (%arg2: tensor<4x8xf32>, %arg3: tensor<4x4xf32>) {
// CHECK-NEXT: %3 = sdy.data_flow_edge %arg2 sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
// CHECK-NEXT: %4 = sdy.data_flow_edge %arg3 sharding=<@mesh, [{"b"}, {}]> : tensor<4x4xf32>
// CHECK-NEXT: %5 = sdy.manual_computation(%3) in_shardings=[<@mesh, [{}, {}], replicated={"b"}>] out_shardings=[<@mesh, [{}, {}], replicated={"b"}>] manual_axes={"b"} (%arg4: tensor<4x8xf32>) {
// CHECK-NEXT: %7 = sdy.data_flow_edge %arg4 sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
// CHECK-NEXT: sdy.return %7 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %6 = sdy.data_flow_edge %5 sharding=<@mesh, [{}, {}], replicated={"b"}> : tensor<4x8xf32>
// CHECK-NEXT: sdy.return %6, %3 : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NEXT: %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"c"}, {}], replicated={"a"}> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.data_flow_edge %0#1 sharding=<@mesh, [{"c"}, {}], replicated={"a"}> : tensor<8x8xf32>
// CHECK-NEXT: return %1 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @f(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %3:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"c"}, {}]>, <@mesh, [{"c", "b"}, {"a"}]>] out_shardings=[<@mesh, [{"c"}, {}]>, <@mesh, [{"c"}, {}], replicated={"a"}>] manual_axes={"c", "a"} (%b: tensor<4x8xf32>, %c: tensor<4x4xf32>) {
    %4 = sdy.manual_computation(%b) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}], replicated={"b"}>] manual_axes={"b"} (%d: tensor<4x8xf32>) {
      sdy.return %d : tensor<4x8xf32>
    } : (tensor<4x8xf32>) -> tensor<4x8xf32>
    sdy.return %4, %b : tensor<4x8xf32>, tensor<4x8xf32>
  } : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %3#0 : tensor<8x8xf32>
}

// -----

// CHECK-LABEL: func.func @no_io() {
// CHECK-NEXT: sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"a"} () {
// CHECK-NEXT: sdy.return
// CHECK-NEXT: } : () -> ()
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @no_io() {
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"a"} () {
    %0 = sdy.constant dense<1.000000e+00> : tensor<8xf32>
    sdy.return
  } : () -> ()
  func.return
}

// -----

// CHECK-LABEL: func.func @no_io_no_axes() {
// CHECK-NEXT: sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
// CHECK-NEXT: sdy.return
// CHECK-NEXT: } : () -> ()
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @no_io_no_axes() {
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
    %0 = sdy.constant dense<1.000000e+00> : tensor<8xf32>
    sdy.return
  } : () -> ()
  func.return
}

// -----

// CHECK: sdy.mesh @mesh = <["a"=8, "b"=4]> {stablehlo.mesh = {axes = [{name = "a", size = 8 : i64}, {name = "b", size = 4 : i64}]}}
// CHECK-LABEL: func.func @partly_used_manual_axes(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(2)2}, {}], replicated={"a":(1)2, "a":(4)2, "b"}>}) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a":(2)2}, {}], replicated={"a":(1)2, "a":(4)2, "b"}>] out_shardings=[<@mesh, [{"a":(4)2}, {}], replicated={"a":(1)4, "b"}>] manual_axes={"a", "b"} (%arg1: tensor<8x8xf32>) {
// CHECK-NEXT: %2 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %2 : tensor<8x8xf32>
// CHECK-NEXT: } : (tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a":(4)2}, {}], replicated={"a":(1)4, "b"}> : tensor<16x8xf32>
// CHECK-NEXT: return %1 : tensor<16x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=8, "b"=4]>
func.func @partly_used_manual_axes(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a":(2)2}, {}], replicated={"b":(1)2}>] out_shardings=[<@mesh, [{"a":(4)2}, {}], replicated={"a":(1)2}>] manual_axes={"b", "a"} (%x: tensor<8x8xf32>) {
    sdy.return %x : tensor<8x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 2 : i64}]}}
// CHECK-LABEL: func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}], unreduced={"a"}>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.sharding_constraint %arg1 <@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
// CHECK-NEXT: %3 = stablehlo.multiply %0, %2 : tensor<8x8xf32>
// CHECK-NEXT: %4 = sdy.sharding_constraint %arg2 <@mesh, [{}, {"b"}], unreduced={"a"}> {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
// CHECK-NEXT: %5 = stablehlo.negate %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %6 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %7 = sdy.sharding_constraint %6 <@mesh, [{"b"}, {}]> {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
// CHECK-NEXT: %8 = sdy.sharding_constraint %7 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %9 = stablehlo.add %8, %8 : tensor<8x8xf32>
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

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 2 : i64}]}}
// CHECK-LABEL: func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<i32>) -> tensor<8x8xf32> {
// CHECK-NEXT: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
// CHECK-NEXT: cond {
// CHECK-NEXT: %8 = sdy.constant dense<3> : tensor<i32>
// CHECK-NEXT: %9 = stablehlo.compare LT, %iterArg_0, %8 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %9 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %8 = sdy.sharding_constraint %iterArg <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %9 = stablehlo.add %8, %8 : tensor<8x8xf32>
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

// -----

// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>, %arg3: tensor<8xf32>) {
// CHECK-NEXT: sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
// CHECK-NEXT: sdy.sharding_group %arg1 group_id=0 : tensor<8xf32>
// CHECK-NEXT: sdy.sharding_group %arg2 group_id=1 : tensor<8xf32>
// CHECK-NEXT: sdy.sharding_group %arg3 group_id=1 : tensor<8xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>, %arg3: tensor<8xf32>) {
  sdy.sharding_group %arg0 group_id=9 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=5 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=3 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id=7 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id=1 : tensor<8xf32>
  sdy.sharding_group %arg3 group_id=4 : tensor<8xf32>
  sdy.sharding_group %arg3 group_id=7 : tensor<8xf32>
  sdy.sharding_group %arg3 group_id=4 : tensor<8xf32>
  sdy.sharding_group %arg0 group_id=6 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=9 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=9 : tensor<8xf32>
  sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
  sdy.sharding_group %arg3 group_id=2 : tensor<8xf32>
  func.return
}

// -----

// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) {
// CHECK-NEXT: sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
// CHECK-NEXT: sdy.sharding_group %arg1 group_id=1 : tensor<8xf32>
// CHECK-NEXT: sdy.sharding_group %arg2 group_id=0 : tensor<8xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) {
  sdy.sharding_group %arg0 group_id=5 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=3 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=1 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id=8 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id=2 : tensor<8xf32>
  sdy.sharding_group %arg0 group_id=8 : tensor<8xf32>
  func.return
}

// -----

// CHECK: sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1, "d"=4]> {stablehlo.mesh = {axes = [{name = "a", size = 1 : i64}, {name = "b", size = 2 : i64}, {name = "c", size = 1 : i64}, {name = "d", size = 4 : i64}]}}
// CHECK-LABEL: func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}p2, {"d":(1)2}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharding_constraint %0 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"b"}, {"d"}], replicated={"a"}>] out_shardings=[<@mesh, [{"b"}, {}], replicated={"a"}>] manual_axes={"a", "b"} (%arg2: tensor<4x8xf32>) {
// CHECK-NEXT: %4 = sdy.data_flow_edge %arg2 sharding=<@mesh, [{}, {"d"}]> : tensor<4x8xf32>
// CHECK-NEXT: sdy.return %4 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.data_flow_edge %2 sharding=<@mesh, [{"b"}, {}], replicated={"a"}> : tensor<8x8xf32>
// CHECK-NEXT: return %3 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1, "d"=4]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {"c"}p1]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}p2, {"d":(1)2}], unreduced={"a"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", "a"}, {}]>]>} : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {"c"}]> : tensor<8x8xf32>
  %3 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"a", "b"}, {"d"}], replicated={"c"}>] out_shardings=[<@mesh, [{"a", "b"}, {}]>] manual_axes={"a", "b"} (%b: tensor<4x8xf32>) {
    sdy.return %b : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
