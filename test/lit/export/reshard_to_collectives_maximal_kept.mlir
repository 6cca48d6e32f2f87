// REQUIRES: reshards_keep_maximal_meshes
// RUN: pysdy-opt %s -split-input-file -sdy-reshard-to-collectives | filecheck %s

// A reshard between a maximal sharding (no dimensions) and a sharding with dimensions on a mesh with the same
// axes has no collectives: jaxlib 0.11's and 0.12's Shardy keep it as it is, and convert the other reshards.
// Expected output: those lines' C++ pass on each input.

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

// CHECK-LABEL: func.func @maximal_to_replicated(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %1 : tensor<8x16xf32>
// CHECK-NEXT: }
func.func @maximal_to_replicated(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {}]> : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

// The earlier reshard becomes collectives; the later one, to the maximal mesh, stays on their result.
// CHECK-LABEL: func.func @after_a_converted_reshard(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y":(1)2}, {"x", "y":(2)2}]> : tensor<8x16xf32>
// CHECK-NEXT: %1 = sdy.all_gather [{"y":(1)2}, {"y":(2)2}] %0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x16xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@maximal_mesh_0, []> : tensor<8x16xf32>
// CHECK-NEXT: return %2 : tensor<8x16xf32>
// CHECK-NEXT: }
func.func @after_a_converted_reshard(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {"x"}]> : tensor<8x16xf32>
  %1 = sdy.reshard %0 <@maximal_mesh_0, []> : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
