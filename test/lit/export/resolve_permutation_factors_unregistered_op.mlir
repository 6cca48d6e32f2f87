// RUN: pysdy-opt %s -allow-unregistered-dialect -sdy-resolve-permutation-factors -split-input-file -verify-diagnostics

// jaxlib's Shardy (every jax line) crashes on a module holding an op of an unregistered dialect, whether or not the
// op is sharded: it asks each op for its dialect. pysdy refuses the first such op it walks to.

sdy.mesh @mesh = <["x"=2]>

func.func @sharded_unknown_op(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // expected-error@+1 {{sdy-resolve-permutation-factors: 'foo.op' is an op of an unregistered dialect}}
  %0 = "foo.op"(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @unsharded_unknown_terminator_in_a_region(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "foo.wrap"(%arg0) ({
  ^bb0(%x: tensor<8xf32>):
    // expected-error@+1 {{sdy-resolve-permutation-factors: 'foo.yield' is an op of an unregistered dialect}}
    "foo.yield"(%x) : (tensor<8xf32>) -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
