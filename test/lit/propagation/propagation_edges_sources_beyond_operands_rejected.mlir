// RUN: pysdy-opt %s -sdy-import-pipeline -sdy-basic-propagate=debug-propagation-edge-sharding=true -verify-diagnostics
// REQUIRES: !verifier_accepts_edge_sources_beyond_operands

// Before jax 0.12, the verifier rejects propagation edges on an sdy.data_flow_edge naming a source beyond its one
// operand, which debug propagation records on a while's edges: jaxlib's C++ and pysdy fail alike.

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  // expected-error@+1 {{'sdy.data_flow_edge' op expected a value ref to have an operand index in range [0, 1), got: 1}}
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
