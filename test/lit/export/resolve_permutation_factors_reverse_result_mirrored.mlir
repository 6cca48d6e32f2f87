// RUN: pysdy-opt %s -sdy-resolve-permutation-factors -split-input-file | filecheck %s
// REQUIRES: permutation_factors_reverse_result_mirrored

// From jax 0.11, a sharded reverse's result gets the operand's sharding on a mesh with the device order mirrored
// along the reversed axes (`<mesh>_reversed`, first in the module, or an equal mesh already there), and is resharded
// back to its own sharding after the op.

sdy.mesh @mesh = <["x"=4]>

// CHECK:       sdy.mesh @mesh_reversed = <["x"=4], device_ids=[2, 3, 0, 1]>
// CHECK-NEXT:  sdy.mesh @mesh = <["x"=4]>
// CHECK-LABEL: func @reverse_of_sub_axis
func.func @reverse_of_sub_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)2}]>}) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[R:.*]] = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_reversed, [{"x":(1)2}, {"x":(2)2}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: %[[OUT:.*]] = sdy.reshard %[[R]] <@mesh, [{"x":(1)2}, {"x":(2)2}]> : tensor<8x8xf32>
  // CHECK-NEXT: return %[[OUT]] : tensor<8x8xf32>
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}, {"x":(2)2}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @other = <["x"=2], device_ids=[1, 0]>

// CHECK:       sdy.mesh @mesh = <["x"=2]>
// CHECK-NEXT:  sdy.mesh @other = <["x"=2], device_ids=[1, 0]>
// CHECK-LABEL: func @equal_mesh_reused
func.func @equal_mesh_reused(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[R:.*]] = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@other, [{"x"}]>]>} : tensor<8xf32>
  // CHECK-NEXT: %[[OUT:.*]] = sdy.reshard %[[R]] <@mesh, [{"x"}]> : tensor<8xf32>
  // CHECK-NEXT: return %[[OUT]] : tensor<8xf32>
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2], device_ids=[1, 0]>

// CHECK:       sdy.mesh @mesh_reversed = <["x"=2]>
// CHECK-NEXT:  sdy.mesh @mesh = <["x"=2], device_ids=[1, 0]>
// CHECK-LABEL: func @mirrored_to_iota_order
func.func @mirrored_to_iota_order(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // CHECK-NEXT: %[[R:.*]] = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_reversed, [{"x"}]>]>} : tensor<8xf32>
  // CHECK-NEXT: %[[OUT:.*]] = sdy.reshard %[[R]] <@mesh, [{"x"}]> : tensor<8xf32>
  // CHECK-NEXT: return %[[OUT]] : tensor<8xf32>
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
