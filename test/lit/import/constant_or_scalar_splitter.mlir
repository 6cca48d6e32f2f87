// RUN: pysdy-opt %s -split-input-file -sdy-constant-or-scalar-splitter 2>/dev/null | filecheck %s

// CHECK: sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
// CHECK-NEXT: %0 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %0 group_id=3 : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %1 group_id=3 : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %2 group_id=3 : tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %3 group_id=3 : tensor<8x8xf32>
// CHECK-NEXT: %4 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %4 group_id=3 : tensor<8x8xf32>
// CHECK-NEXT: %5 = sdy.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
// CHECK-NEXT: %7 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
// CHECK-NEXT: %8 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
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
// CHECK-NEXT: %24 = sdy.constant dense<3.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %25 = sdy.constant dense<3.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %26 = stablehlo.add %arg1, %24 : tensor<8x8xf32>
// CHECK-NEXT: %27 = stablehlo.add %26, %25 : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %27 : tensor<8x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %19 = stablehlo.add %18, %4 : tensor<8x8xf32>
// CHECK-NEXT: %20 = sdy.named_computation<"cnc">() () {
// CHECK-NEXT: %24 = stablehlo.iota dim = 0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %24 : tensor<8x8xf32>
// CHECK-NEXT: } : () -> tensor<8x8xf32>
// CHECK-NEXT: %21 = sdy.named_computation<"cnc">() () {
// CHECK-NEXT: %24 = stablehlo.iota dim = 0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %24 : tensor<8x8xf32>
// CHECK-NEXT: } : () -> tensor<8x8xf32>
// CHECK-NEXT: %22 = stablehlo.add %20, %arg0 : tensor<8x8xf32>
// CHECK-NEXT: %23 = stablehlo.add %21, %22 : tensor<8x8xf32>
// CHECK-NEXT: return %17, %19, %23 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @const_fn() -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.negate %0 : tensor<8x8xf32>
// CHECK-NEXT: return %1 : tensor<8x8xf32>
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
// CHECK-NEXT: %11 = sdy.constant dense<3> : tensor<i32>
// CHECK-NEXT: %12 = stablehlo.compare LT, %iterArg_0, %11 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %12 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %11 = stablehlo.add %iterArg, %0 : tensor<8xf32>
// CHECK-NEXT: %12 = stablehlo.add %11, %1 : tensor<8xf32>
// CHECK-NEXT: stablehlo.return %12, %iterArg_0 : tensor<8xf32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: %5 = stablehlo.reshape %2 : (tensor<8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %6 = stablehlo.reshape %3 : (tensor<8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %7 = stablehlo.reshape %5 : (tensor<2x4xf32>) -> tensor<8xf32>
// CHECK-NEXT: %8 = stablehlo.reshape %6 : (tensor<2x4xf32>) -> tensor<8xf32>
// CHECK-NEXT: %9 = stablehlo.add %4#0, %7 : tensor<8xf32>
// CHECK-NEXT: %10 = stablehlo.add %9, %8 : tensor<8xf32>
// CHECK-NEXT: return %10 : tensor<8xf32>
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

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x2xf32>, %arg1: tensor<i32>, %arg2: !stablehlo.token) -> tensor<8x2xf32> {
// CHECK-NEXT: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x2xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, []>]>}
// CHECK-NEXT: cond {
// CHECK-NEXT: %7 = sdy.constant dense<3> : tensor<i32>
// CHECK-NEXT: %8 = stablehlo.compare LT, %iterArg_0, %7 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %8 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %7 = stablehlo.add %iterArg, %iterArg : tensor<8x2xf32>
// CHECK-NEXT: stablehlo.return %7, %iterArg_0 : tensor<8x2xf32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = "stablehlo.case"(%arg1) ({
// CHECK-NEXT: stablehlo.return %0#0 : tensor<8x2xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.return %arg0 : tensor<8x2xf32>
// CHECK-NEXT: }) : (tensor<i32>) -> tensor<8x2xf32>
// CHECK-NEXT: %2:2 = stablehlo.optimization_barrier %1, %arg2 : tensor<8x2xf32>, !stablehlo.token
// CHECK-NEXT: %3 = stablehlo.compare EQ, %arg1, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: %4 = "stablehlo.if"(%3) ({
// CHECK-NEXT: stablehlo.return %2#0 : tensor<8x2xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.return %arg0 : tensor<8x2xf32>
// CHECK-NEXT: }) : (tensor<i1>) -> tensor<8x2xf32>
// CHECK-NEXT: %5 = sdy.named_computation<"foo">(%4) (%arg3: tensor<8x2xf32>) {
// CHECK-NEXT: sdy.return %arg3 : tensor<8x2xf32>
// CHECK-NEXT: } : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT: %6 = sdy.manual_computation(%5) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg3: tensor<4x2xf32>) {
// CHECK-NEXT: sdy.return %arg3 : tensor<4x2xf32>
// CHECK-NEXT: } : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT: return %6 : tensor<8x2xf32>
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

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=4, "c"=2]>
// CHECK-LABEL: func.func @nested(%arg0: tensor<16x8xf32>, %arg1: tensor<i32>, %arg2: !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token) {
// CHECK-NEXT: %0:2 = sdy.named_computation<"outer">(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, []>, <@mesh, []>] out_shardings=[<@mesh, [{"b", ?}, {}]>, <@mesh, []>] (%arg3: tensor<16x8xf32>, %arg4: tensor<i32>, %arg5: !stablehlo.token) {
// CHECK-NEXT: %2:3 = stablehlo.while(%iterArg = %arg3, %iterArg_0 = %arg4, %iterArg_1 = %arg5) : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
// CHECK-NEXT: cond {
// CHECK-NEXT: %3 = sdy.constant dense<3> : tensor<i32>
// CHECK-NEXT: %4 = stablehlo.compare LT, %iterArg_0, %3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %4 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %3 = sdy.manual_computation(%iterArg) in_shardings=[<@mesh, [{"a", "b":(1)2}, {"c"}], replicated={"b":(2)2}>] out_shardings=[<@mesh, [{"a", "b":(1)2, ?}, {}], unreduced={"c"}>] manual_axes={"a", "b"} (%arg6: tensor<4x8xf32>) {
// CHECK-NEXT: %4 = stablehlo.add %arg6, %arg6 : tensor<4x8xf32>
// CHECK-NEXT: sdy.return %4 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: stablehlo.return %3, %iterArg_0, %iterArg_1 : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
// CHECK-NEXT: }
// CHECK-NEXT: sdy.return %2#0, %2#2 : tensor<16x8xf32>, !stablehlo.token
// CHECK-NEXT: } : (tensor<16x8xf32>, tensor<i32>, !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token)
// CHECK-NEXT: %1:2 = "stablehlo.case"(%arg1) ({
// CHECK-NEXT: stablehlo.return %0#0, %arg1 : tensor<16x8xf32>, tensor<i32>
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.return %arg0, %arg1 : tensor<16x8xf32>, tensor<i32>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"c"}p0]>, <@mesh, []>]>} : (tensor<i32>) -> (tensor<16x8xf32>, tensor<i32>)
// CHECK-NEXT: return %1#0, %0#1 : tensor<16x8xf32>, !stablehlo.token
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
// CHECK-LABEL: func.func private @foo(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) {
// CHECK-NEXT: %0 = stablehlo.abs %arg0 : tensor<8xf32>
// CHECK-NEXT: return %0 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
// CHECK-NEXT: %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = call @bar(%0) {mhlo.frontend_attributes = {inlineable = "false"}} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %2:2 = call @baz(%1) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT: %3 = call @foo(%2#0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %3, %2#1 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @bar(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = call @qux(%0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %1 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @qux(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 : tensor<8xf32>
// CHECK-NEXT: return %0 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @baz(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[0]>, []>}) {
// CHECK-NEXT: return %arg0, %arg0 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @unused(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = call @qux(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %0 : tensor<8xf32>
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
// CHECK-NEXT: %4 = func.call @r(%2) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: stablehlo.return %4 : tensor<8xf32>
// CHECK-NEXT: }) : (tensor<i32>) -> tensor<8xf32>
// CHECK-NEXT: return %3 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @ext(tensor<8xf32>) -> tensor<8xf32>
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
// CHECK-NEXT: %1 = func.call @p(%arg1) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: sdy.return %1 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %0 : tensor<8xf32>
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
