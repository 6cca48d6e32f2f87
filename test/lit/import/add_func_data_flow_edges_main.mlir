// RUN: pysdy-opt %s -split-input-file -sdy-add-func-data-flow-edges -verify-diagnostics | filecheck %s

// The main function, whose arguments get no edge, is `@main` or else a module's only function; a module with
// neither is refused (jaxlib's C++ aborts).

sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func.func @only_function(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = stablehlo.abs %arg0 : tensor<8xf32>
func.func @only_function(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// expected-error@+1 {{sdy-add-func-data-flow-edges needs a function @main, or a single function (jaxlib's C++ aborts without)}}
sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
