// RUN: pysdy-opt %s -sdy-basic-propagate=debug-sharding-origins=true -split-input-file -verify-diagnostics

// jaxlib's C++ crashes (segmentation fault) on these, on every line: origins name a manual computation's
// data-flow edges, and this one has some of them only. pysdy reports the op.

sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @result_without_edge(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{debug-sharding-origins needs an sdy.data_flow_edge on every body argument and result of a manual computation (sdy-add-data-flow-edges puts them there)}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {?}]>] out_shardings=[<@mesh, [{"a"}, {?}]>] manual_axes={"a"} (%x: tensor<4x16xf32>) {
    %1 = sdy.data_flow_edge %x : tensor<4x16xf32>
    %2 = stablehlo.abs %1 : tensor<4x16xf32>
    sdy.return %2 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @argument_without_edge(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{debug-sharding-origins needs an sdy.data_flow_edge on every body argument and result of a manual computation (sdy-add-data-flow-edges puts them there)}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {?}]>] out_shardings=[<@mesh, [{"a"}, {?}]>] manual_axes={"a"} (%x: tensor<4x16xf32>) {
    %1 = stablehlo.abs %x : tensor<4x16xf32>
    sdy.return %1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = sdy.data_flow_edge %0 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
