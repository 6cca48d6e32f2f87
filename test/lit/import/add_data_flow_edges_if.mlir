// RUN: pysdy-opt %s -sdy-add-data-flow-edges | filecheck %s
// REQUIRES: if_is_data_flow_op

// stablehlo.if is a data-flow op like stablehlo.case: its results get data-flow edges (from jax 0.12).

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK-LABEL: func.func @if_results_get_edges(
// CHECK-SAME: %arg0: tensor<8x2xf32>, %arg1: tensor<i1>) -> tensor<8x2xf32> {
// CHECK-NEXT: %0 = "stablehlo.if"(%arg1) ({
// CHECK-NEXT: stablehlo.return %arg0 : tensor<8x2xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %2 = stablehlo.add %arg0, %arg0 : tensor<8x2xf32>
// CHECK-NEXT: stablehlo.return %2 : tensor<8x2xf32>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : (tensor<i1>) -> tensor<8x2xf32>
// CHECK-NEXT: %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}, {}]> : tensor<8x2xf32>
// CHECK-NEXT: return %1 : tensor<8x2xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @if_results_get_edges(%arg0: tensor<8x2xf32>, %arg1: tensor<i1>) -> tensor<8x2xf32> {
  %0 = "stablehlo.if"(%arg1) ({
    stablehlo.return %arg0 : tensor<8x2xf32>
  }, {
    %1 = stablehlo.add %arg0, %arg0 : tensor<8x2xf32>
    stablehlo.return %1 : tensor<8x2xf32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : (tensor<i1>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}
