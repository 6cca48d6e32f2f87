// REQUIRES: !reshards_keep_maximal_meshes
// RUN: pysdy-opt %s -split-input-file -sdy-reshard-to-collectives -verify-diagnostics

// A reshard between a maximal sharding (no dimensions) and a sharding with dimensions on a mesh with the same
// axes cannot become collectives: jaxlib 0.10's Shardy fails on it, printing it as the IR stands then.
// Expected messages: that line's C++ pass on each input.

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

func.func @maximal_to_replicated(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // expected-error@+1 {{failed to legalize operation 'sdy.reshard' that was explicitly marked illegal: %1 = "sdy.reshard"(%0) <{sharding = #sdy.sharding<@mesh, [{}, {}]>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>}}
  %1 = sdy.reshard %0 <@mesh, [{}, {}]> : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

// The earlier reshard is converted first; it is still there when the later one fails, and still its operand.
func.func @after_a_converted_reshard(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {"x"}]> : tensor<8x16xf32>
  // expected-error@+1 {{failed to legalize operation 'sdy.reshard' that was explicitly marked illegal: %3 = "sdy.reshard"(%2) <{sharding = #sdy.sharding<@maximal_mesh_0, []>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>}}
  %1 = sdy.reshard %0 <@maximal_mesh_0, []> : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
