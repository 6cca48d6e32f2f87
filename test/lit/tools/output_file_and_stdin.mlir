// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules -o %t && filecheck %s < %t
// RUN: pysdy-opt - -sdy-populate-op-sharding-rules < %s | filecheck %s
// RUN: pysdy-opt -sdy-populate-op-sharding-rules -o=%t %s && filecheck %s < %t

// CHECK-LABEL: func @f
// CHECK: stablehlo.sqrt %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=4}>}
func.func @f(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.sqrt %arg0 : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
