// REQUIRES: per_instruction_partitioning
// RUN: pysdy-opt %s -split-input-file -sdy-per-instruction-partitioning -verify-diagnostics

// Where jaxlib's pass partitions an op on its own (in an sdy.manual_computation, through Shardy's partitioner
// passes), pysdy refuses at the first such op.

sdy.mesh @mesh = <["x"=2]>

func.func @sharded_add(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  // expected-error@+1 {{sdy-per-instruction-partitioning: pysdy does not implement partitioning 'stablehlo.add' on its own}}
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// An op without a sharding of its own is partitioned for its sharded operand.
func.func @sharded_operand_only(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // expected-error@+1 {{sdy-per-instruction-partitioning: pysdy does not implement partitioning 'stablehlo.negate' on its own}}
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @reshard(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // expected-error@+1 {{sdy-per-instruction-partitioning: pysdy does not implement partitioning 'sdy.reshard' on its own}}
  %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
