// RUN: pysdy-opt %s -split-input-file -sdy-basic-propagate -verify-diagnostics
// RUN: pysdy-opt %s -split-input-file -sdy-propagation-pipeline -verify-diagnostics

// An sdy.data_flow_edge whose input owns no edge (a while's block argument, as Shardy writes it only for
// sdy-sink-data-flow-edges, a function argument, an ordinary result) has no sources propagation could read: a
// located error, where jaxlib's C++ crashes.

sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i1>) -> tensor<8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
    cond {
    stablehlo.return %arg1 : tensor<i1>
  } do {
    // expected-error@+1 {{'sdy.data_flow_edge' op input is no edge owner (a result of a data-flow op or a block argument of a named or manual computation): propagation cannot tell where its sharding comes from}}
    %1 = sdy.data_flow_edge %iterArg sharding=<@mesh, [{"a"}]> : tensor<8xf32>
    stablehlo.return %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'sdy.data_flow_edge' op input is no edge owner}}
  %0 = sdy.data_flow_edge %arg0 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  // expected-error@+1 {{'sdy.data_flow_edge' op input is no edge owner}}
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}
