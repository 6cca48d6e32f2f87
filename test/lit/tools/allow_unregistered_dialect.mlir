// RUN: not pysdy-opt %s -sdy-basic-propagate 2>&1 | filecheck %s --check-prefix=REFUSED
// RUN: pysdy-opt %s -allow-unregistered-dialect -sdy-basic-propagate 2>&1 | filecheck %s

// Without the flag an op of an unknown dialect is MLIR's located parse error; with it, propagation
// passes through the ops it knows and stops at the unknown one, which has no sharding rule.

// REFUSED: allow_unregistered_dialect.mlir:[[# @LINE + 10]]:16: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
// REFUSED-NOT: Traceback

sdy.mesh @mesh = <["a"=2]>

// CHECK: allow_unregistered_dialect.mlir:[[# @LINE + 5]]:8: warning: op 'foo.op' is unknown to SDY sharding rule registry
// CHECK-LABEL: func @main
// CHECK-NEXT: stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>}
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = "foo.op"(%0) : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK-NEXT: "foo.op"(%0) : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK-NEXT: stablehlo.negate %1 : tensor<8xf32>
  %2 = stablehlo.negate %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}
