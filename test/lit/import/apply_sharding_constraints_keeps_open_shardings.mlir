// RUN: pysdy-opt %s -sdy-apply-sharding-constraints -split-input-file | filecheck %s
// REQUIRES: !apply_sharding_constraints_overrides_open_shardings

// Before jax 0.12, a sharding constraint applies only to a value without a sharding, however open its sharding is.

// A value whose sharding is open and empty on every dimension keeps it: the constraint does not apply.
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
// CHECK-NEXT:   %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT:   %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT:   %2 = stablehlo.add %0, %0 : tensor<8x8xf32>
// CHECK-NEXT:   return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>]>} : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %2 = stablehlo.add %0, %0 : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A closed dimension keeps the sharding: the constraint does not apply.
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
// CHECK-NEXT:   %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT:   %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT:   %2 = stablehlo.add %0, %0 : tensor<8x8xf32>
// CHECK-NEXT:   return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {}]>]>} : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %2 = stablehlo.add %0, %0 : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A result without dimensions of an op with two results keeps its sharding too.
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-LABEL: func.func @main(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
// CHECK-NEXT:   %0:2 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, []>]>} : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT:   %1 = sdy.sharding_constraint %0#1 <@mesh, [], unreduced={"x"}> : tensor<f32>
// CHECK-NEXT:   %2 = stablehlo.add %0#1, %0#0 : tensor<f32>
// CHECK-NEXT:   return %1, %2 : tensor<f32>, tensor<f32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0:2 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, []>]>} : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  %1 = sdy.sharding_constraint %0#1 <@mesh, [], unreduced={"x"}> : tensor<f32>
  %2 = stablehlo.add %0#1, %0#0 : tensor<f32>
  return %1, %2 : tensor<f32>, tensor<f32>
}

// -----

// The result without dimensions of an op with one result keeps its sharding.
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-LABEL: func.func @main(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
// CHECK-NEXT:   %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : tensor<f32>
// CHECK-NEXT:   %1 = sdy.sharding_constraint %0 <@mesh, [], unreduced={"x"}> : tensor<f32>
// CHECK-NEXT:   %2 = stablehlo.add %0, %0 : tensor<f32>
// CHECK-NEXT:   return %1, %2 : tensor<f32>, tensor<f32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : tensor<f32>
  %1 = sdy.sharding_constraint %0 <@mesh, [], unreduced={"x"}> : tensor<f32>
  %2 = stablehlo.add %0, %0 : tensor<f32>
  return %1, %2 : tensor<f32>, tensor<f32>
}
