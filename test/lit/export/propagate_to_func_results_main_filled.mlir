// RUN: pysdy-opt %s -split-input-file -sdy-propagate-to-func-results | filecheck %s
// REQUIRES: func_results_fill_main

// From jax 0.11, the main function's results without a sharding take the returned values' shardings (open,
// replicated or unreduced alike); a result with its own sharding keeps it. Expected output: jaxlib 0.11's C++ pass.

sdy.mesh @mesh = <["x"=4, "y"=2]>

// CHECK-LABEL: func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x6xf32>)
// CHECK-SAME: -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}, tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}, tensor<8x6xf32>, tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x6xf32>) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>) {
  %0 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<8x6xf32>
  %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>} : tensor<8x6xf32>
  %2 = stablehlo.negate %arg1 : tensor<8x6xf32>
  return %0, %0, %1, %2, %arg0 : tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>
}

// -----

// The only function of a module counts as main.

sdy.mesh @mesh = <["x"=4, "y"=2]>

// CHECK-LABEL: func.func @only_function(%arg0: tensor<8x6xf32>)
// CHECK-SAME: -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}) {
func.func @only_function(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<8x6xf32>) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {?}]>]>} : tensor<8x6xf32>
  return %0, %0 : tensor<8x6xf32>, tensor<8x6xf32>
}
