// RUN: pysdy-opt %s -sdy-constant-or-scalar-merger | filecheck %s

// Identical constants, and broadcasts of the same scalar, with identical shardings merge within one region.
// Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>) {
// CHECK-NEXT: %0 = sdy.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %cst = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<2.000000e+00> : tensor<8x6xf32>
// CHECK-NEXT: %cst_0 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} dense<2.000000e+00> : tensor<8x6xf32>
// CHECK-NEXT: %1 = stablehlo.broadcast_in_dim %0, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<f32>) -> tensor<8x6xf32>
// CHECK-NEXT: %2 = stablehlo.broadcast_in_dim %0, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"z"}]>]>} : (tensor<f32>) -> tensor<8x6xf32>
// CHECK-NEXT: %3 = stablehlo.add %cst, %1 : tensor<8x6xf32>
// CHECK-NEXT: %4 = stablehlo.add %cst, %1 : tensor<8x6xf32>
// CHECK-NEXT: %5 = stablehlo.add %cst_0, %2 : tensor<8x6xf32>
// CHECK-NEXT: %6 = stablehlo.while(%iterArg = %3) : tensor<8x6xf32>
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT: stablehlo.return %c : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %cst_1 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<2.000000e+00> : tensor<8x6xf32>
// CHECK-NEXT: %7 = stablehlo.add %cst_1, %cst_1 : tensor<8x6xf32>
// CHECK-NEXT: stablehlo.return %7 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %6, %4, %5 : tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>
// CHECK-NEXT: }

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

func.func @main(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>) {
  %0 = sdy.constant dense<1.0> : tensor<f32>
  %1 = sdy.constant dense<1.0> : tensor<f32>
  %2 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<2.0> : tensor<8x6xf32>
  %3 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<2.0> : tensor<8x6xf32>
  %4 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} dense<2.0> : tensor<8x6xf32>
  %5 = stablehlo.broadcast_in_dim %0, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<f32>) -> tensor<8x6xf32>
  %6 = stablehlo.broadcast_in_dim %1, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<f32>) -> tensor<8x6xf32>
  %7 = stablehlo.broadcast_in_dim %1, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"z"}]>]>} : (tensor<f32>) -> tensor<8x6xf32>
  %8 = stablehlo.add %2, %5 : tensor<8x6xf32>
  %9 = stablehlo.add %3, %6 : tensor<8x6xf32>
  %10 = stablehlo.add %4, %7 : tensor<8x6xf32>
  %11 = stablehlo.while(%iterArg = %8) : tensor<8x6xf32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %12 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<2.0> : tensor<8x6xf32>
    %13 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<2.0> : tensor<8x6xf32>
    %14 = stablehlo.add %12, %13 : tensor<8x6xf32>
    stablehlo.return %14 : tensor<8x6xf32>
  }
  return %11, %9, %10 : tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>
}
