// RUN: pysdy-opt %s -sdy-populate-op-sharding-rules -verify-diagnostics | filecheck %s

// As in Shardy, the first unknown call target warns (once per process) and gets no rule.

// CHECK-LABEL: func @unknown_targets
func.func @unknown_targets(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // CHECK-NEXT: stablehlo.custom_call @my_kernel(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  // expected-warning@+1 {{custom call @my_kernel is unknown to SDY sharding rule registry}}
  %0 = stablehlo.custom_call @my_kernel(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  // CHECK-NEXT: stablehlo.custom_call @other_kernel(%0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.custom_call @other_kernel(%0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
