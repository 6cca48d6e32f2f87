// RUN: pysdy-opt %s -sdy-insert-explicit-reshards -split-input-file | filecheck %s
// REQUIRES: reshards_around_single_device_ops

// From jax 0.11, an op with a tensor result on a maximal mesh (a host callback, a reshard to a device) runs on that
// device: its tensor operands are moved there and its results are replicated back on the module's first
// non-maximal mesh. Expected output: jaxlib 0.11's and 0.12's C++ pass on this input.

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal = <[], device_ids=[0]>

// A reshard to a maximal mesh is itself a single-device op: its sharded operand goes there through replicated,
// and its result comes back replicated for its users.
// CHECK-LABEL: func.func @reshard_to_maximal_mesh(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@maximal, []> : tensor<8x16xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@maximal, []> : tensor<8x16xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %4 = stablehlo.negate %3 : tensor<8x16xf32>
// CHECK-NEXT: return %4 : tensor<8x16xf32>
// CHECK-NEXT: }
func.func @reshard_to_maximal_mesh(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@maximal, []> : tensor<8x16xf32>
  %1 = stablehlo.negate %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal = <[], device_ids=[0]>

// A callback as the pass leaves it, run through the pass again (the export pipeline after the propagation
// pipeline): the reshards before it are single-device ops too, so each gets its own round trip.
// CHECK-LABEL: func.func @callback_resharded_again(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@maximal, []> : tensor<8x16xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@maximal, []> : tensor<8x16xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %4 = sdy.reshard %3 <@maximal, []> : tensor<8x16xf32>
// CHECK-NEXT: %5 = stablehlo.custom_call @cb(%4) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %6 = sdy.reshard %5 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %7 = sdy.reshard %6 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %7 : tensor<8x16xf32>
// CHECK-NEXT: }
func.func @callback_resharded_again(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x16xf32>
  %1 = sdy.reshard %0 <@maximal, []> : tensor<8x16xf32>
  %2 = stablehlo.custom_call @cb(%1) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %3 = sdy.reshard %2 <@mesh, [{}, {}]> : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal = <[], device_ids=[0]>
sdy.mesh @maximal_copy = <[], device_ids=[0]>
sdy.mesh @maximal_1 = <[], device_ids=[1]>

// An operand already on the op's maximal mesh stays; one on another maximal mesh (even of the same device) goes
// through replicated; a replicated one goes straight there. A data-flow op on a maximal mesh is no single-device op.
// CHECK-LABEL: func.func @operands_on_maximal_meshes(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: %0:4 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal_copy, []>, <@maximal_1, []>, <@mesh, [{}, {?}], replicated={"x"}>]>} %arg0, %arg0, %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: %1 = sdy.reshard %0#1 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@maximal, []> : tensor<8x16xf32>
// CHECK-NEXT: %3 = sdy.reshard %0#2 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %4 = sdy.reshard %3 <@maximal, []> : tensor<8x16xf32>
// CHECK-NEXT: %5 = sdy.reshard %0#3 <@maximal, []> : tensor<8x16xf32>
// CHECK-NEXT: %6 = stablehlo.custom_call @cb(%0#0, %2, %4, %5) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %7 = sdy.reshard %6 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %7 : tensor<8x16xf32>
// CHECK-NEXT: }
func.func @operands_on_maximal_meshes(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0:4 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal_copy, []>, <@maximal_1, []>, <@mesh, [{}, {?}], replicated={"x"}>]>} %arg0, %arg0, %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
  %1 = stablehlo.custom_call @cb(%0#0, %0#1, %0#2, %0#3) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @mesh_a = <["a"=8]>
sdy.mesh @maximal = <[], device_ids=[0]>

// One result on a maximal mesh puts all the op's tensor results there (a token result keeps its sharding); each is
// replicated on the first non-maximal mesh, then resharded to the sharding it had if that was another one.
// CHECK-LABEL: func.func @results_moved_to_the_device(%arg0: !stablehlo.token, %arg1: tensor<8x16xf32>) -> (!stablehlo.token, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
// CHECK-NEXT: %0 = sdy.reshard %arg1 <@maximal, []> : tensor<8x16xf32>
// CHECK-NEXT: %1:5 = stablehlo.custom_call @cb(%arg0, %0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@maximal, []>, <@maximal, []>, <@maximal, []>, <@maximal, []>]>} : (!stablehlo.token, tensor<8x16xf32>) -> (!stablehlo.token, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK-NEXT: %2 = sdy.reshard %1#1 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{?}, {?}]> : tensor<8x16xf32>
// CHECK-NEXT: %4 = sdy.reshard %1#2 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %5 = sdy.reshard %1#3 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %6 = sdy.reshard %1#4 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %7 = sdy.reshard %6 <@mesh_a, [{"a"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %1#0, %3, %4, %5, %7 : !stablehlo.token, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
func.func @results_moved_to_the_device(%arg0: !stablehlo.token, %arg1: tensor<8x16xf32>) -> (!stablehlo.token, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:5 = stablehlo.custom_call @cb(%arg0, %arg1) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{?}, {?}]>, <@mesh, [{}, {}]>, <@maximal, []>, <@mesh_a, [{"a"}, {}]>]>} : (!stablehlo.token, tensor<8x16xf32>) -> (!stablehlo.token, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1, %0#2, %0#3, %0#4 : !stablehlo.token, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal = <[], device_ids=[0]>
sdy.mesh @maximal_copy = <[], device_ids=[0]>

// Results on two maximal meshes of one device: the op goes to the last one.
// CHECK-LABEL: func.func @results_on_two_meshes_of_one_device(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@maximal, []> : tensor<8x16xf32>
// CHECK-NEXT: %1:2 = stablehlo.custom_call @cb(%0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal, []>]>} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK-NEXT: %2 = sdy.reshard %1#0 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: %3 = sdy.reshard %1#1 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %2, %3 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
func.func @results_on_two_meshes_of_one_device(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:2 = stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_copy, []>, <@maximal, []>]>} : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal = <[], device_ids=[0]>

// A call with a result on a maximal mesh is resharded as a call; an op without results is left alone.
// CHECK-LABEL: func.func @call_and_op_without_results(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>) -> ()
// CHECK-NEXT: %1 = call @f(%0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %1 : tensor<8x16xf32>
// CHECK-NEXT: }
func.func @call_and_op_without_results(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  stablehlo.custom_call @cb(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>) -> ()
  %0 = func.call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
// CHECK-LABEL: func.func private @f(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x16xf32>
// CHECK-NEXT: }
func.func private @f(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}
