// RUN: not pysdy-opt %s -split-input-file -sdy-remove-sub-axes-in-input-output-shardings 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=ERR < %t.err

// A chunk that fails does not take the other chunks' output with it, and an error about a chunk's
// implicit module points at that chunk's first op, not at line 1 of the file.

// CHECK-LABEL: func @main
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}
// CHECK-NEXT:    return %arg0
sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2, ?}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// ERR:      split_input_file_failures.mlir:[[# @LINE + 4]]:1: error: Failed to find the main function
// ERR-NEXT: {{^}}sdy.mesh @mesh = <["a"=2]>
// ERR-NEXT: {{^}}^
// ERR-NOT:  error
sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK:       {{^}}// -----
// CHECK-LABEL: func @main
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}
sdy.mesh @mesh = <["b"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
