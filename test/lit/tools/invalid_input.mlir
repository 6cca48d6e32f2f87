// RUN: not pysdy-opt %s -split-input-file -sdy-populate-op-sharding-rules 2>&1 | filecheck %s

// Bad input gives file:line:col diagnostics, exit status 1, and no traceback.

// CHECK-NOT: Traceback
// CHECK: invalid_input.mlir:[[# @LINE + 2]]:22: error: use of undeclared SSA value name
func.func @undeclared(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg1 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

// CHECK: invalid_input.mlir:[[# @LINE + 1]]:1: error: 'func.func' op arg 0 - unknown axis name: "q"
func.func @bad_sharding(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"q"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// The parts that are valid are still processed and printed.
// CHECK: func.func @valid
func.func @valid(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
// CHECK-NOT: Traceback
