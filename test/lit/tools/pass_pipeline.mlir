// RUN: pysdy-opt %s --pass-pipeline='builtin.module(func.func(sdy-populate-op-sharding-rules{conservative-propagation=true}),cse)' | filecheck %s
// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules="conservative-propagation=true" -cse | filecheck %s
// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules=conservative-propagation=true --cse | filecheck %s

// Both pipeline spellings, with an option and an upstream pass beside a pysdy pass.

// CHECK-LABEL: func @f
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: %[[ABS:.*]] = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>}
  // CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %[[ABS]], %[[ABS]]
  // CHECK-NEXT: return %[[ADD]]
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = stablehlo.abs %arg0 : tensor<8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}
