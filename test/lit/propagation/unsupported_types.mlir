// RUN: pysdy-opt %s -sdy-basic-propagate -split-input-file -verify-diagnostics
// RUN: not pysdy-opt %s -sdy-user-priority-propagate -split-input-file 2>&1 | filecheck %s

// Propagation needs static shapes and no tuples; the error names the first offender, as Shardy's does.

sdy.mesh @mesh = <["a"=2]>

// CHECK: unsupported_types.mlir:[[# @LINE + 3]]:8: error: Shardy propagation only supports ranked tensors with a static shape. type: 'tensor<?x8xf32>'
func.func @dynamic_shape(%arg0: tensor<?x8xf32>) -> tensor<?x8xf32> {
  // expected-error@+1 {{Shardy propagation only supports ranked tensors with a static shape. type: 'tensor<?x8xf32>'}}
  %0 = stablehlo.abs %arg0 : tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

// CHECK: unsupported_types.mlir:[[# @LINE + 3]]:8: error: Shardy propagation doesn't support tuples: 'tuple<tensor<8xf32>>'
func.func @tuple(%arg0: tensor<8xf32>) -> tuple<tensor<8xf32>> {
  // expected-error@+1 {{Shardy propagation doesn't support tuples: 'tuple<tensor<8xf32>>'}}
  %0 = stablehlo.tuple %arg0 : tuple<tensor<8xf32>>
  return %0 : tuple<tensor<8xf32>>
}
