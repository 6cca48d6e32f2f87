// RUN: pysdy-opt %s -sdy-basic-propagate -split-input-file -verify-diagnostics

// jaxlib 0.10.2's C++ aborts the process with this message (LLVM ERROR); pysdy reports it on the op.

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @value_in_two_groups(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
  // expected-error@+1 {{Value can only map to one sharding group id after import.}}
  sdy.sharding_group %arg0 group_id=1 : tensor<8x8xf32>
  return %arg0 : tensor<8x8xf32>
}
