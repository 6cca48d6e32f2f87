// RUN: pysdy-opt %s -sdy-basic-propagate -split-input-file | filecheck %s

// Function-call data-flow edges and main-only result shardings, through sdy-basic-propagate.

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
// CHECK-NEXT:    %0 = call @f(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %1 = sdy.func_data_flow_edge %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    %2 = call @f(%arg1) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %3 = sdy.func_data_flow_edge %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    %4 = stablehlo.add %1, %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %4 : tensor<8x16xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func private @f(
// CHECK-SAME:      %arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT:    %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %1 : tensor<8x16xf32>
// CHECK-NEXT:  }
// Kept calls (dedup-functions-fully): shardings flow through the edges on a callee's
// arguments (fed by every call site) and on call results (fed by the callee's return).
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = call @f(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = sdy.func_data_flow_edge %0 : tensor<8x16xf32>
  %2 = call @f(%arg1) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %3 = sdy.func_data_flow_edge %2 : tensor<8x16xf32>
  %4 = stablehlo.add %1, %3 : tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}
func.func private @f(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8x16xf32>
  %1 = stablehlo.abs %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %0 : tensor<8x16xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @other(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT:    %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %0 : tensor<8x16xf32>
// CHECK-NEXT:  }
// Only the main function exchanges shardings between its returned values and results.
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
func.func @other(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
