// RUN: pysdy-opt %s -split-input-file -sdy-propagation-pipeline=dedup-functions-fully=true -verify-diagnostics

// A function argument that already has a func data-flow edge gets a second one, which then feeds the first: an
// edge whose operand is neither an argument nor a call result, which the verifier rejects after the pass, as it
// does in jaxlib. (Found by fuzzing pysdy-opt: the propagation steps after the pass used to crash on it.)

sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x16xf32> {
  %0 = call @f(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = sdy.func_data_flow_edge %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

func.func private @f(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'sdy.func_data_flow_edge' op expected operand of sdy.func_data_flow_edge to be a result of call op.}}
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8x16xf32>
  %1 = stablehlo.abs %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
