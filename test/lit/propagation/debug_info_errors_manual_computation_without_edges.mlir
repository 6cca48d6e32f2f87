// RUN: pysdy-opt %s -sdy-basic-propagate=debug-sharding-origins=true -verify-diagnostics
// REQUIRES: !origins_skip_manual_computations_without_edges

// jaxlib 0.10 and 0.11 crash (segmentation fault) on a manual computation without any data-flow edge when
// recording origins, which name its edges. pysdy reports the op.

sdy.mesh @mesh = <["a"=2]>

func.func @manual_computation_without_edges(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error@+1 {{debug-sharding-origins needs an sdy.data_flow_edge on every body argument and result of a manual computation (sdy-add-data-flow-edges puts them there)}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%x: tensor<4xf32>) {
    %1 = stablehlo.abs %x : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %2 = stablehlo.abs %0 : tensor<8xf32>
  return %2 : tensor<8xf32>
}
