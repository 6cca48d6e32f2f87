// REQUIRES: per_instruction_partitioning
// RUN: pysdy-opt %s -sdy-per-instruction-partitioning='filter=selectLow=1,neg' -verify-diagnostics

// The filter numbers the candidate ops from 0 and keeps those from selectLow whose name contains a listed part:
// here the negate (candidate 1), not the add (0) nor the abs (2, named otherwise).

sdy.mesh @mesh = <["x"=2]>

func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  // expected-error@+1 {{sdy-per-instruction-partitioning: pysdy does not implement partitioning 'stablehlo.negate' on its own}}
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  %2 = stablehlo.abs %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %2 : tensor<8xf32>
}
