// RUN: pysdy-opt %s -split-input-file -sdy-convert-global-to-local -verify-diagnostics

// Where jaxlib's pass converts the module to local shapes (or fails on an sdy op it cannot convert), pysdy refuses
// at the first op or function it would change.

sdy.mesh @mesh = <["x"=2]>

// expected-error@+1 {{sdy-convert-global-to-local: pysdy does not implement converting 'func.func' with a dimension sharded across devices to local shapes}}
func.func @sharded_argument(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @sharded_result(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{sdy-convert-global-to-local: pysdy does not implement converting 'stablehlo.negate' with a dimension sharded across devices to local shapes}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @collective(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{sdy-convert-global-to-local: pysdy does not implement converting 'sdy.all_reduce' (an sdy op) to local shapes}}
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @sdy_constant() -> tensor<8xf32> {
  // expected-error@+1 {{sdy-convert-global-to-local: pysdy does not implement converting 'sdy.constant' (an sdy op) to local shapes}}
  %0 = sdy.constant dense<1.0> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
