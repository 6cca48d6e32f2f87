// RUN: pysdy-opt %s -split-input-file -sdy-insert-explicit-reshards=enable-full-version=true | filecheck %s

// Unreduced axes do not shard a tensor: Shardy's fully-replicated checks ignore them.
// Expected output: jaxlib's C++ pass on this input.

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @reordered = <["x"=2, "y"=2], device_ids=[1, 0, 3, 2]>

// A value without a sharding counts as equivalent to a target with unreduced axes only: no reshard.
// CHECK-LABEL: func.func @unsharded_value_to_unreduced_result(%arg0: tensor<12xf32>) -> (tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 : tensor<12xf32>
// CHECK-NEXT: return %0 : tensor<12xf32>
// CHECK-NEXT: }
func.func @unsharded_value_to_unreduced_result(%arg0: tensor<12xf32>) -> (tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) {
  %0 = stablehlo.negate %arg0 : tensor<12xf32>
  return %0 : tensor<12xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @reordered = <["x"=2, "y"=2], device_ids=[1, 0, 3, 2]>

// Unreduced axes alone do not make a sharding count for the op's most common mesh.
// CHECK-LABEL: func.func @common_mesh_ignores_unreduced_axes(%arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@reordered, [{}], unreduced={"x"}>}, %arg1: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<12xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"y"}], unreduced={"x"}> : tensor<12xf32>
// CHECK-NEXT: %1 = stablehlo.add %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}], unreduced={"x"}>]>} : tensor<12xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@reordered, [{}], unreduced={"x"}> : tensor<12xf32>
// CHECK-NEXT: %3 = sdy.all_reduce {"x"} %2 out_sharding=<@reordered, [{}]> : tensor<12xf32>
// CHECK-NEXT: return %3 : tensor<12xf32>
// CHECK-NEXT: }
func.func @common_mesh_ignores_unreduced_axes(%arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@reordered, [{}], unreduced={"x"}>}, %arg1: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<12xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@reordered, [{}], unreduced={"x"}>]>} : tensor<12xf32>
  return %0 : tensor<12xf32>
}
