// RUN: pysdy-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(sdy-verify-unreduced-axes))" -verify-diagnostics
// REQUIRES: verify_unreduced_axes

// sdy-verify-unreduced-axes compares an op's unreduced axes only when all its shardings are on one mesh, by value:
// two meshes that differ are not compared, two names of one mesh are.

sdy.mesh @mesh_a = <["x"=2, "y"=2]>
sdy.mesh @mesh_b = <["x"=2, "y"=2, "z"=2]>
func.func @other_mesh_not_compared(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_a, [{"y"}, {}], unreduced={"x"}>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_b, [{"y"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh_a = <["x"=2, "y"=2]>
sdy.mesh @mesh_b = <["x"=2, "y"=2]>
func.func @same_mesh_other_name_compared(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_a, [{"y"}, {}], unreduced={"x"}>}) -> tensor<8x8xf32> {
  // expected-error@+1 {{'stablehlo.add' op dropped unreduced axis 'x' without a blessed operation (e.g., sdy.reshard). This is an invalid transition from unreduced to reduced.}}
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_b, [{"y"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @mesh_ordered = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>
func.func @other_device_order_not_compared(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>}) -> tensor<8x8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_ordered, [{"y"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
