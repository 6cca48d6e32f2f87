// RUN: pysdy-opt %s -split-input-file -sdy-populate-op-sharding-rules | filecheck %s

// Each part is processed on its own; outputs are joined with the marker.

// CHECK-LABEL: func @first
// CHECK-NEXT:    stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>}
func.func @first(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK:       {{^}}}
// CHECK-NEXT:  {{^}}// -----
// CHECK-NEXT:  module {
// CHECK-NEXT:    func.func @second
// CHECK-NEXT:    stablehlo.negate %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=3}>}
func.func @second(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.negate %arg0 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
