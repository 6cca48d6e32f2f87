// RUN: pysdy-opt %s -sdy-export-named-computations | filecheck %s

// Named computations (nested ones first) become private functions and calls; names that clash get a `_N` suffix.
// Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// CHECK-NEXT: %0 = call @foo_0(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %1 = call @inner_1(%0) : (tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %2 = call @foo_2(%1) : (tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: return %2 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @inner_0(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @foo(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @inner(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "inner"} {
// CHECK-NEXT: %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
// CHECK-NEXT: return %0 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @foo_0(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo"} {
// CHECK-NEXT: %0 = call @inner(%arg0) {mhlo.frontend_attributes = {_xla_compute_type = "host"}} : (tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: return %0 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @inner_1(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "inner"} {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @foo_2(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo"} {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

func.func @main(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"y"}, {}]>] (%arg1: tensor<8x6xf32>) {
    %1 = sdy.named_computation<"inner">(%arg1) (%arg2: tensor<8x6xf32>) {
      %2 = stablehlo.abs %arg2 : tensor<8x6xf32>
      sdy.return %2 : tensor<8x6xf32>
    } {mhlo.frontend_attributes = {_xla_compute_type = "host"}} : (tensor<8x6xf32>) -> tensor<8x6xf32>
    sdy.return %1 : tensor<8x6xf32>
  } : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %3 = sdy.named_computation<"inner">(%0) (%arg1: tensor<8x6xf32>) {
    sdy.return %arg1 : tensor<8x6xf32>
  } : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %4 = sdy.named_computation<"foo">(%3) (%arg1: tensor<8x6xf32>) {
    sdy.return %arg1 : tensor<8x6xf32>
  } : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %4 : tensor<8x6xf32>
}
func.func private @inner_0(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  return %arg0 : tensor<8x6xf32>
}
func.func private @foo(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  return %arg0 : tensor<8x6xf32>
}
