// RUN: pysdy-opt %s -verify-diagnostics
// REQUIRES: !verifier_says_single_device_sharding

// Before jax 0.12, the verifier calls a sharding on a mesh without axes a maximal sharding.

sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// expected-error@+1 {{'func.func' op arg 0 - a maximal sharding can only have a sharding with rank 0 and no replicated or unreduced axes.}}
func.func @maximal_sharding_with_replicated_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, [{}], replicated={"x"}>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
