// RUN: pysdy-opt %s -sdy-apply-sharding-constraints=debug-sharding-origins=true -sdy-basic-propagate=debug-sharding-origins=true -verify-diagnostics | filecheck %s

// With debug origins, sdy-apply-sharding-constraints reads the module's rules with warnings dropped; propagation,
// after it in the same context, still warns about the first op without a rule, as jaxlib's C++ does.

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>, sdy.sharding_origins = {x = "self"}}) -> tensor<8xf32>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[CALL:.*]] = stablehlo.custom_call @my_kernel(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  // expected-warning@+1 {{custom call @my_kernel is unknown to SDY sharding rule registry}}
  %0 = stablehlo.custom_call @my_kernel(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK-NEXT: %[[CONSTRAINT:.*]] = sdy.sharding_constraint %[[CALL]] <@mesh, [{}]> {sdy.sharding_origin_name = "constraint_0"} : tensor<8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}]> : tensor<8xf32>
  // CHECK-NEXT: return %[[CONSTRAINT]] : tensor<8xf32>
  return %1 : tensor<8xf32>
}
