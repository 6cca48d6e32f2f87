// RUN: pysdy-opt %s -split-input-file -sdy-basic-propagate | filecheck %s

// Propagation's rewrite driver erases an unused op whose effects are those of the ops nested in it
// (a while, if, case, reduce, manual or named computation) when nothing inside has effects, and
// keeps it when something does.

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
// CHECK-NEXT: return %arg0 : tensor<8xf32>
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
  %0:2 = stablehlo.while(%iter = %arg1, %value = %arg0) : tensor<i32>, tensor<8xf32>
    cond {
      %1 = stablehlo.compare LT, %iter, %iter : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = stablehlo.negate %value : tensor<8xf32>
      stablehlo.return %iter, %1 : tensor<i32>, tensor<8xf32>
    }
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: return %arg0 : tensor<8xf32>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: sdy.manual_computation
// CHECK-NEXT: stablehlo.all_reduce
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    %1 = "stablehlo.all_reduce"(%arg1) ({
      ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
        %2 = stablehlo.add %lhs, %rhs : tensor<f32>
        stablehlo.return %2 : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: sdy.manual_computation
// CHECK-NEXT: sdy.sharding_constraint
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%arg1: tensor<8xf32>) {
    %1 = sdy.sharding_constraint %arg1 <@mesh, [{}]> : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// An op used only inside an erased if is unused once the if is gone, so it goes too.
// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i1>) -> tensor<8xf32> {
// CHECK-NEXT: return %arg0 : tensor<8xf32>
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i1>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = "stablehlo.if"(%arg1) ({
    stablehlo.return %arg0 : tensor<8xf32>
  }, {
    %2 = stablehlo.negate %0 : tensor<8xf32>
    stablehlo.return %2 : tensor<8xf32>
  }) : (tensor<i1>) -> tensor<8xf32>
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: return %arg0 : tensor<8xf32>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
  %1 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8xf32>
  %2 = sdy.named_computation<"body">(%arg0) (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: stablehlo.constant
// CHECK-NEXT: stablehlo.reduce
// CHECK: stablehlo.custom_call @effect
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%arg0 init: %0) across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    reducer(%lhs: tensor<f32>, %rhs: tensor<f32>) {
      %2 = stablehlo.custom_call @effect(%lhs, %rhs) {has_side_effect = true} : (tensor<f32>, tensor<f32>) -> tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }
  return %arg0 : tensor<8xf32>
}
