// RUN: pysdy-opt %s -split-input-file -sdy-import-func-calls 2>&1 >/dev/null | filecheck %s

// Cloning a function body called more than once is warned about once per process, as Shardy's C++ does: the
// second part clones a body too but is not warned about.

// CHECK: import_func_calls_warns_once.mlir:[[# @LINE + 5]]:8: warning: function @bar has multiple call ops, we need to clone the function body for each call
// CHECK-NOT: warning
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @bar(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @bar(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @bar(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @baz(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @baz(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @baz(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
