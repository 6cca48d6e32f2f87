// RUN: pysdy-opt %s -sdy-drop-sharding-rules | filecheck %s

// Registry rules are dropped; custom rules stay.
// Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// CHECK-NEXT: %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
// CHECK-NEXT: %1 = stablehlo.custom_call @foo(%0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=6}, custom>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: return %1 : tensor<8x6xf32>
// CHECK-NEXT: }

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

func.func @main(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=6}>} : tensor<8x6xf32>
  %1 = stablehlo.custom_call @foo(%0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=6}, custom>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %1 : tensor<8x6xf32>
}
