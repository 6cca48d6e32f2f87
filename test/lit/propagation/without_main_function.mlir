// RUN: pysdy-opt %s -sdy-basic-propagate -verify-diagnostics -split-input-file
// RUN: not pysdy-opt %s -sdy-user-priority-propagate -split-input-file 2>&1 | filecheck %s

// Propagation exchanges the main function's result shardings: a module with no `@main` and several functions is
// refused, where jaxlib's C++ aborts; a single function is the main one whatever its name.

// CHECK: without_main_function.mlir:[[# @LINE + 4]]:1: error: sdy-user-priority-propagate needs a function @main, or a single function
// CHECK: func.func @only(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) {

// expected-error@+1 {{needs a function @main, or a single function (jaxlib's C++ aborts without)}}
sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>
func.func @only(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
