// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules 2>&1 | filecheck %s
// REQUIRES: top_k_custom_call_has_rule

// From jax 0.12, a custom call to TopK has the rule of mhlo.topk.

// CHECK-LABEL: func.func @top_k_custom_call(
// CHECK-NOT: warning
// CHECK: %0:2 = stablehlo.custom_call @TopK(%arg0) {mhlo.attributes = {k = 2 : i64, largest = true}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=16, j=8} need_replication={j} blocked_propagation={j}>} : (tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
func.func @top_k_custom_call(%arg0: tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>) {
  %0:2 = stablehlo.custom_call @TopK(%arg0) {mhlo.attributes = {k = 2 : i64, largest = true}} : (tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
  return %0#0, %0#1 : tensor<16x2xf32>, tensor<16x2xi32>
}
