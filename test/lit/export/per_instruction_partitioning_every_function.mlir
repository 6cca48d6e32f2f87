// REQUIRES: per_instruction_partitioning, !per_instruction_main_function_only
// RUN: pysdy-opt %s -split-input-file -sdy-per-instruction-partitioning -verify-diagnostics

// Before jax 0.12 the pass partitions the ops of every function, not only those of `@main` (or of the first public
// function): jaxlib 0.11.2's C++ partitions each sharded op below, in a callee, a second public function or a
// private function before the public one (and fails verifying the result). pysdy does not implement partitioning an
// op on its own and refuses at each.

sdy.mesh @mesh = <["x"=2]>

func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
  %1 = call @callee(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func private @callee(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{sdy-per-instruction-partitioning: pysdy does not implement partitioning 'stablehlo.multiply' on its own}}
  %0 = stablehlo.multiply %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @first(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @second(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{sdy-per-instruction-partitioning: pysdy does not implement partitioning 'stablehlo.abs' on its own}}
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func private @helper(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{sdy-per-instruction-partitioning: pysdy does not implement partitioning 'stablehlo.abs' on its own}}
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @entry(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
