// RUN: pysdy-opt %s -split-input-file -xla-sdy-import-constants | filecheck %s

// A float constant becomes an sdy.constant with its sharding and other attributes.
sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func @float_constant
func.func @float_constant() -> tensor<4xf32> {
  // CHECK-NEXT: %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>, tag = 1 : i64} dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
  // CHECK-NEXT: return %0 : tensor<4xf32>
  %0 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>, tag = 1 : i64} dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A complex constant, whose value jaxlib's bindings cannot read, keeps its value and sharding.
sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func @complex_constant
func.func @complex_constant() -> tensor<2xcomplex<f32>> {
  // CHECK-NEXT: %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} dense<[(1.000000e+00,2.000000e+00), (3.000000e+00,4.000000e+00)]> : tensor<2xcomplex<f32>>
  // CHECK-NEXT: %1 = stablehlo.real %0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  // CHECK-NEXT: return %0 : tensor<2xcomplex<f32>>
  %0 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  %1 = stablehlo.real %0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

// Constants inside regions are converted too.
// CHECK-LABEL: func @constant_in_region
func.func @constant_in_region(%arg0: tensor<i1>) -> tensor<f64> {
  // CHECK-NEXT: %0 = "stablehlo.if"(%arg0) ({
  // CHECK-NEXT: %1 = sdy.constant dense<1.000000e+00> : tensor<f64>
  // CHECK-NEXT: stablehlo.return %1 : tensor<f64>
  // CHECK-NEXT: }, {
  // CHECK-NEXT: %1 = sdy.constant dense<(0.000000e+00,1.000000e+00)> : tensor<complex<f64>>
  // CHECK-NEXT: %2 = stablehlo.real %1 : (tensor<complex<f64>>) -> tensor<f64>
  // CHECK-NEXT: stablehlo.return %2 : tensor<f64>
  // CHECK-NEXT: }) : (tensor<i1>) -> tensor<f64>
  %0 = "stablehlo.if"(%arg0) ({
    %1 = stablehlo.constant dense<1.0> : tensor<f64>
    stablehlo.return %1 : tensor<f64>
  }, {
    %1 = stablehlo.constant dense<(0.0, 1.0)> : tensor<complex<f64>>
    %2 = stablehlo.real %1 : (tensor<complex<f64>>) -> tensor<f64>
    stablehlo.return %2 : tensor<f64>
  }) : (tensor<i1>) -> tensor<f64>
  return %0 : tensor<f64>
}
