// RUN: pysdy-opt %s -sdy-resolve-permutation-factors -split-input-file | filecheck %s
// REQUIRES: !permutation_factors_reverse_result_mirrored

// Before jax 0.11, a sharded reverse's operand is resharded onto a mesh with the device order mirrored along the
// reversed axes (`<mesh>_reversed`, first in the module), and the result takes the operand's sharding.

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK:       sdy.mesh @mesh_reversed = <["x"=2, "y"=2], device_ids=[2, 3, 0, 1]>
// CHECK-NEXT:  sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-LABEL: func @reverse_operand_on_mirrored_mesh
func.func @reverse_operand_on_mirrored_mesh(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[IN:.*]] = sdy.reshard %arg0 <@mesh_reversed, [{"x"}, {}]> : tensor<8x8xf32>
  // CHECK-NEXT: %[[R:.*]] = stablehlo.reverse %[[IN]], dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: return %[[R]] : tensor<8x8xf32>
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @mesh_reversed = <["x"=2, "y"=2]>

// CHECK:       sdy.mesh @mesh_reversed_1 = <["x"=2, "y"=2], device_ids=[1, 0, 3, 2]>
// CHECK-NEXT:  sdy.mesh @mesh_reversed_0 = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>
// CHECK-NEXT:  sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-NEXT:  sdy.mesh @mesh_reversed = <["x"=2, "y"=2]>
// CHECK-LABEL: func @mirrored_meshes_reused_and_renamed
func.func @mirrored_meshes_reused_and_renamed(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh_reversed_0, [{"x"}, {"y"}]> : tensor<8x8xf32>
  // CHECK-NEXT: %[[B:.*]] = stablehlo.reverse %[[A]], dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: %[[C:.*]] = sdy.reshard %[[B]] <@mesh_reversed_0, [{"x"}, {"y"}]> : tensor<8x8xf32>
  // CHECK-NEXT: %[[D:.*]] = stablehlo.reverse %[[C]], dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: %[[E:.*]] = sdy.reshard %[[D]] <@mesh_reversed_1, [{"x"}, {"y"}]> : tensor<8x8xf32>
  // CHECK-NEXT: %[[F:.*]] = stablehlo.reverse %[[E]], dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: return %[[F]] : tensor<8x8xf32>
  %0 = stablehlo.reverse %arg0, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.reverse %0, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  %2 = stablehlo.reverse %1, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
