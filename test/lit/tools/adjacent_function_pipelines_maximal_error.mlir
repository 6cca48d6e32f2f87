// REQUIRES: !reshards_keep_maximal_meshes
// RUN: pysdy-opt %s -verify-diagnostics --pass-pipeline='builtin.module(func.func(sdy-reshard-to-collectives),func.func(sdy-populate-op-sharding-rules))'
// RUN: pysdy-opt %s -verify-diagnostics -sdy-reshard-to-collectives -sdy-populate-op-sharding-rules

// As in MLIR, adjacent function pipelines (and function passes named at module level) run as one,
// function by function: the rules pass reaches @first, and warns about an op there, before the
// reshard pass fails on @second (jaxlib 0.10's Shardy cannot convert a reshard to a maximal mesh).

sdy.mesh @m3 = <["x"=2, "y"=2, "z"=2]>
sdy.mesh @maximal_0 = <[], device_ids=[0]>

func.func @first(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  // The all-to-all replacing this reshard is the first op without a rule the rules pass meets.
  // expected-warning@+1 {{op 'sdy.all_to_all' is unknown to SDY sharding rule registry}}
  %0 = sdy.reshard %arg0 <@m3, [{"x"}, {"y"}]> : tensor<16x8xf32>
  %1 = stablehlo.abs %0 : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

func.func @second(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  // expected-error@+1 {{failed to legalize operation 'sdy.reshard' that was explicitly marked illegal}}
  %0 = sdy.reshard %arg0 <@maximal_0, []> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
