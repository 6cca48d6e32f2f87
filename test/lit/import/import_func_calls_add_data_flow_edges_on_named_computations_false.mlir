// RUN: pysdy-opt %s -split-input-file -sdy-import-func-calls='add-data-flow-edges-on-named-computations=false' 2>/dev/null | filecheck %s

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
// CHECK-NEXT: %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"a"}]>] (%arg1: tensor<8xf32>) {
// CHECK-NEXT: %4 = stablehlo.abs %arg1 : tensor<8xf32>
// CHECK-NEXT: sdy.return %4 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = sdy.named_computation<"bar">(%0) (%arg1: tensor<8xf32>) {
// CHECK-NEXT: %4 = sdy.named_computation<"foo">(%arg1) in_shardings=[<@mesh, [{"a"}]>] (%arg2: tensor<8xf32>) {
// CHECK-NEXT: %6 = stablehlo.abs %arg2 : tensor<8xf32>
// CHECK-NEXT: sdy.return %6 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %5 = sdy.named_computation<"qux">(%4) (%arg2: tensor<8xf32>) {
// CHECK-NEXT: %6 = stablehlo.negate %arg2 : tensor<8xf32>
// CHECK-NEXT: sdy.return %6 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: sdy.return %5 : tensor<8xf32>
// CHECK-NEXT: } {mhlo.frontend_attributes = {inlineable = "false"}} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %2:2 = sdy.named_computation<"baz">(%1) (%arg1: tensor<8xf32>) {
// CHECK-NEXT: sdy.return %arg1, %arg1 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT: %3 = sdy.named_computation<"foo">(%2#0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{}]>] (%arg1: tensor<8xf32>) {
// CHECK-NEXT: %4 = stablehlo.abs %arg1 : tensor<8xf32>
// CHECK-NEXT: sdy.return %4 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %3, %2#1 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @unused(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = sdy.named_computation<"qux">(%arg0) (%arg1: tensor<8xf32>) {
// CHECK-NEXT: %1 = stablehlo.negate %arg1 : tensor<8xf32>
// CHECK-NEXT: sdy.return %1 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
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

// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = sdy.named_computation<"q">(%arg0) (%arg2: tensor<8xf32>) {
// CHECK-NEXT: %4 = sdy.named_computation<"p">(%arg2) (%arg3: tensor<8xf32>) {
// CHECK-NEXT: sdy.return %arg3 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: sdy.return %4 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = sdy.named_computation<"r">(%0) (%arg2: tensor<8xf32>) {
// CHECK-NEXT: %4 = sdy.named_computation<"q">(%arg2) (%arg3: tensor<8xf32>) {
// CHECK-NEXT: %6 = sdy.named_computation<"p">(%arg3) (%arg4: tensor<8xf32>) {
// CHECK-NEXT: sdy.return %arg4 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: sdy.return %6 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %5 = sdy.named_computation<"p">(%4) (%arg3: tensor<8xf32>) {
// CHECK-NEXT: sdy.return %arg3 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: sdy.return %5 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %2 = sdy.named_computation<"r">(%1) (%arg2: tensor<8xf32>) {
// CHECK-NEXT: %4 = sdy.named_computation<"q">(%arg2) (%arg3: tensor<8xf32>) {
// CHECK-NEXT: %6 = sdy.named_computation<"p">(%arg3) (%arg4: tensor<8xf32>) {
// CHECK-NEXT: sdy.return %arg4 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: sdy.return %6 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %5 = sdy.named_computation<"p">(%4) (%arg3: tensor<8xf32>) {
// CHECK-NEXT: sdy.return %arg3 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: sdy.return %5 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %3 = "stablehlo.case"(%arg1) ({
// CHECK-NEXT: %4 = sdy.named_computation<"r">(%2) (%arg2: tensor<8xf32>) {
// CHECK-NEXT: %5 = sdy.named_computation<"q">(%arg2) (%arg3: tensor<8xf32>) {
// CHECK-NEXT: %7 = sdy.named_computation<"p">(%arg3) (%arg4: tensor<8xf32>) {
// CHECK-NEXT: sdy.return %arg4 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: sdy.return %7 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %6 = sdy.named_computation<"p">(%5) (%arg3: tensor<8xf32>) {
// CHECK-NEXT: sdy.return %arg3 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: sdy.return %6 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
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
// CHECK-NEXT: %1 = sdy.named_computation<"p">(%arg1) (%arg2: tensor<8xf32>) {
// CHECK-NEXT: sdy.return %arg2 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: sdy.return %1 : tensor<8xf32>
// CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %0 : tensor<8xf32>
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

// CHECK: sdy.mesh @mesh = <["a"=2]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
// CHECK-NEXT: %cst = stablehlo.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: %0 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharding_constraint %cst <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %cst group_id=3 : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.named_computation<"const_fn">() () {
// CHECK-NEXT: %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %16 = stablehlo.negate %cst_1 : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %16 : tensor<8x8xf32>
// CHECK-NEXT: } : () -> tensor<8x8xf32>
// CHECK-NEXT: %3 = stablehlo.add %2, %cst : tensor<8x8xf32>
// CHECK-NEXT: %4 = stablehlo.add %arg0, %cst : tensor<8x8xf32>
// CHECK-NEXT: %5 = stablehlo.multiply %4, %cst : tensor<8x8xf32>
// CHECK-NEXT: %6 = stablehlo.multiply %5, %0 : tensor<8x8xf32>
// CHECK-NEXT: %7 = stablehlo.add %6, %0 : tensor<8x8xf32>
// CHECK-NEXT: %8 = stablehlo.add %7, %1 : tensor<8x8xf32>
// CHECK-NEXT: %9 = stablehlo.add %8, %3 : tensor<8x8xf32>
// CHECK-NEXT: %10 = sdy.named_computation<"non_const">(%9) (%arg1: tensor<8x8xf32>) {
// CHECK-NEXT: %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %16 = stablehlo.add %arg1, %cst_1 : tensor<8x8xf32>
// CHECK-NEXT: %17 = stablehlo.add %16, %cst_1 : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %17 : tensor<8x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %11 = sdy.named_computation<"nc">(%cst) (%arg1: tensor<8x8xf32>) {
// CHECK-NEXT: %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %16 = stablehlo.add %arg1, %cst_1 : tensor<8x8xf32>
// CHECK-NEXT: %17 = stablehlo.add %16, %cst_1 : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %17 : tensor<8x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %12 = stablehlo.add %11, %cst : tensor<8x8xf32>
// CHECK-NEXT: %13 = sdy.named_computation<"cnc">() () {
// CHECK-NEXT: %16 = stablehlo.iota dim = 0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %16 : tensor<8x8xf32>
// CHECK-NEXT: } : () -> tensor<8x8xf32>
// CHECK-NEXT: %14 = stablehlo.add %13, %arg0 : tensor<8x8xf32>
// CHECK-NEXT: %15 = stablehlo.add %13, %14 : tensor<8x8xf32>
// CHECK-NEXT: return %10, %12, %15 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
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
// CHECK-NEXT: %cst = stablehlo.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8xf32>, tensor<i32>
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<3> : tensor<i32>
// CHECK-NEXT: %5 = stablehlo.compare LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %5 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %5 = stablehlo.add %iterArg, %cst : tensor<8xf32>
// CHECK-NEXT: %6 = stablehlo.add %5, %cst : tensor<8xf32>
// CHECK-NEXT: stablehlo.return %6, %iterArg_0 : tensor<8xf32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = stablehlo.reshape %cst : (tensor<8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %2 = stablehlo.reshape %1 : (tensor<2x4xf32>) -> tensor<8xf32>
// CHECK-NEXT: %3 = stablehlo.add %0#0, %2 : tensor<8xf32>
// CHECK-NEXT: %4 = stablehlo.add %3, %2 : tensor<8xf32>
// CHECK-NEXT: return %4 : tensor<8xf32>
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
