// RUN: pysdy-opt %s -sdy-insert-explicit-reshards -split-input-file | filecheck %s
// REQUIRES: !reshards_around_single_device_ops

// Before jax 0.11, an op on a maximal mesh gets no reshards of its own: a reshard to a maximal mesh and a callback
// after one stay as they are. Expected output: jaxlib 0.10's C++ pass on this input.

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal = <[], device_ids=[0]>

// A reshard to a maximal mesh stays as it is.
// CHECK-LABEL: func.func @reshard_to_maximal_mesh(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@maximal, []> : tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.negate %0 : tensor<8x16xf32>
// CHECK-NEXT: return %1 : tensor<8x16xf32>
// CHECK-NEXT: }
func.func @reshard_to_maximal_mesh(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@maximal, []> : tensor<8x16xf32>
  %1 = stablehlo.negate %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal = <[], device_ids=[0]>

// A callback after reshards to and from its device (as jax 0.11 leaves one): nothing changes.
// CHECK-LABEL: func.func @callback_resharded_again(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@maximal, []> : tensor<8x16xf32>
// CHECK-NEXT: %2 = stablehlo.custom_call @cb(%1) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %3 : tensor<8x16xf32>
// CHECK-NEXT: }
func.func @callback_resharded_again(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x16xf32>
  %1 = sdy.reshard %0 <@maximal, []> : tensor<8x16xf32>
  %2 = stablehlo.custom_call @cb(%1) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %3 = sdy.reshard %2 <@mesh, [{}, {}]> : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}
