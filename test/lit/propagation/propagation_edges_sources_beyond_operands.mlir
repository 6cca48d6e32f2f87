// RUN: pysdy-opt %s -sdy-import-pipeline -sdy-basic-propagate=debug-propagation-edge-sharding=true | filecheck %s
// REQUIRES: verifier_accepts_edge_sources_beyond_operands

// From jax 0.12, the verifier accepts propagation edges on an sdy.data_flow_edge that name its edge's other
// sources (operand-1: the loop body's return), as debug propagation records them on a while's edges.

// CHECK-LABEL: func.func @main(
// CHECK: %2 = sdy.data_flow_edge %1#0 sharding=<@mesh, [{"a", ?}, {"b", ?}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"a" = operand-0 -> [operand-1, result-0]}]}]>} : tensor<8x16xf32>
// CHECK-NEXT: %3 = sdy.data_flow_edge %1#1 sharding=<@mesh, [{"a", ?}, {"b", ?}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-4 = [{"a" = operand-1 -> [operand-0]}, {"b" = operand-1 -> [operand-0]}]}]>} : tensor<8x16xf32>
// CHECK-NEXT: %4 = sdy.data_flow_edge %1#2 : tensor<i32>
sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:3 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1, %iterArg_1 = %c) : tensor<8x16xf32>, tensor<8x16xf32>, tensor<i32>
    cond {
    %c1 = stablehlo.constant dense<4> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg_1, %c1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %iterArg_0 : tensor<8x16xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{?}, {"b", ?}]> : tensor<8x16xf32>
    stablehlo.return %2, %iterArg_0, %iterArg_1 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<i32>
  }
  return %0#0 : tensor<8x16xf32>
}
