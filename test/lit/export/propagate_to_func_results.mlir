// RUN: pysdy-opt %s -sdy-propagate-to-func-results | filecheck %s

// Non-main functions' results take the shardings of the returned values (or lose theirs).
// Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x6xf32> {
// CHECK-NEXT: %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %1 = call @foo_0(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %2 = call @foo(%1) : (tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %3:2 = call @bar(%2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {}]>, <@mesh, [{?}, {?}]>]>} : (tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>)
// CHECK-NEXT: %4 = stablehlo.add %0, %3#0 : tensor<8x6xf32>
// CHECK-NEXT: %5 = stablehlo.add %4, %3#1 : tensor<8x6xf32>
// CHECK-NEXT: return %5 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @foo(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) attributes {sdy.original_func_name = "foo"} {
// CHECK-NEXT: %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x6xf32>
// CHECK-NEXT: return %0 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @foo_0(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) attributes {sdy.original_func_name = "foo"} {
// CHECK-NEXT: %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x6xf32>
// CHECK-NEXT: return %0 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @bar(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", ?}, {?}]>}) {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z", ?}, {?}]>]>} : tensor<8x6xf32>
// CHECK-NEXT: return %arg0, %0 : tensor<8x6xf32>, tensor<8x6xf32>
// CHECK-NEXT: }

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x6xf32> {
  %0 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %1 = call @foo_0(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %2 = call @foo(%1) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %3:2 = call @bar(%2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {}]>, <@mesh, [{?}, {?}]>]>} : (tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>)
  %4 = stablehlo.add %0, %3#0 : tensor<8x6xf32>
  %5 = stablehlo.add %4, %3#1 : tensor<8x6xf32>
  return %5 : tensor<8x6xf32>
}
func.func private @foo(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) attributes {sdy.original_func_name = "foo"} {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @foo_0(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) attributes {sdy.original_func_name = "foo"} {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @bar(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"z"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z", ?}, {?}]>]>} : tensor<8x6xf32>
  return %arg0, %0 : tensor<8x6xf32>, tensor<8x6xf32>
}
