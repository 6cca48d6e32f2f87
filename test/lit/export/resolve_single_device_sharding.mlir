// REQUIRES: single_device_guard_compares_ui32
// RUN: pysdy-opt %s -split-input-file -sdy-resolve-single-device-sharding | filecheck %s

// Each op whose results are on one device (a maximal mesh) runs in a `stablehlo.if` on that device, the other
// devices return zeros (new tokens for tokens), and an all-reduce over the module's first mesh with axes gives every
// device the result; a reshard of it to replicated on that mesh goes, and a reshard of an operand to a single device
// is bypassed. jax 0.12 compares the ui32 partition id itself.
// Expected output: jaxlib 0.12.0.1's C++ pass on each input.

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal = <[], device_ids=[3]>

// The reshards around the op go: the operand's (unused after), and the result's to replicated.
// CHECK-LABEL: func.func @custom_call_between_reshards(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<3> : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.compare EQ, %0, %c : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// CHECK-NEXT: %2 = "stablehlo.if"(%1) ({
// CHECK-NEXT: %5 = stablehlo.custom_call @foo(%arg0) {has_side_effect = true} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: stablehlo.return %5 : tensor<8x8xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: stablehlo.return %cst : tensor<8x8xf32>
// CHECK-NEXT: }) : (tensor<i1>) -> tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.all_reduce {"x", "y"} %2 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %4 = stablehlo.add %3, %3 : tensor<8x8xf32>
// CHECK-NEXT: return %4 : tensor<8x8xf32>
// CHECK-NEXT: }
func.func @custom_call_between_reshards(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@maximal, []> : tensor<8x8xf32>
  %1 = stablehlo.custom_call @foo(%0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x8xf32>
  %3 = stablehlo.add %2, %2 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal = <[], device_ids=[3]>

// A token result gets a new token on the other devices and no all-reduce.
// CHECK-LABEL: func.func @token_result(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, !stablehlo.token) {
// CHECK-NEXT: %0 = stablehlo.create_token : !stablehlo.token
// CHECK-NEXT: %1 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<3> : tensor<ui32>
// CHECK-NEXT: %2 = stablehlo.compare EQ, %1, %c : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// CHECK-NEXT: %3:2 = "stablehlo.if"(%2) ({
// CHECK-NEXT: %5:2 = stablehlo.custom_call @foo(%arg0, %0) {has_side_effect = true} : (tensor<8x8xf32>, !stablehlo.token) -> (tensor<8x8xf32>, !stablehlo.token)
// CHECK-NEXT: stablehlo.return %5#0, %5#1 : tensor<8x8xf32>, !stablehlo.token
// CHECK-NEXT: }, {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %5 = stablehlo.create_token : !stablehlo.token
// CHECK-NEXT: stablehlo.return %cst, %5 : tensor<8x8xf32>, !stablehlo.token
// CHECK-NEXT: }) : (tensor<i1>) -> (tensor<8x8xf32>, !stablehlo.token)
// CHECK-NEXT: %4 = sdy.all_reduce {"x", "y"} %3#0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %4, %3#1 : tensor<8x8xf32>, !stablehlo.token
// CHECK-NEXT: }
func.func @token_result(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, !stablehlo.token) {
  %t = stablehlo.create_token : !stablehlo.token
  %1:2 = stablehlo.custom_call @foo(%arg0, %t) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal, []>]>} : (tensor<8x8xf32>, !stablehlo.token) -> (tensor<8x8xf32>, !stablehlo.token)
  return %1#0, %1#1 : tensor<8x8xf32>, !stablehlo.token
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>

// Zeros of each element type.
// CHECK-LABEL: func.func @element_types(%arg0: tensor<4xi32>, %arg1: tensor<4xi1>, %arg2: tensor<bf16>, %arg3: tensor<2xcomplex<f32>>, %arg4: tensor<3xui8>) -> (tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<2xcomplex<f32>>, tensor<3xui8>) {
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<1> : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.compare EQ, %0, %c : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// CHECK-NEXT: %2:5 = "stablehlo.if"(%1) ({
// CHECK-NEXT: %8:5 = stablehlo.custom_call @foo(%arg0, %arg1, %arg2, %arg3, %arg4) : (tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<2xcomplex<f32>>, tensor<3xui8>) -> (tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<2xcomplex<f32>>, tensor<3xui8>)
// CHECK-NEXT: stablehlo.return %8#0, %8#1, %8#2, %8#3, %8#4 : tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<2xcomplex<f32>>, tensor<3xui8>
// CHECK-NEXT: }, {
// CHECK-NEXT: %c_0 = stablehlo.constant dense<0> : tensor<4xi32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<false> : tensor<4xi1>
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
// CHECK-NEXT: %cst_2 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<2xcomplex<f32>>
// CHECK-NEXT: %c_3 = stablehlo.constant dense<0> : tensor<3xui8>
// CHECK-NEXT: stablehlo.return %c_0, %c_1, %cst, %cst_2, %c_3 : tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<2xcomplex<f32>>, tensor<3xui8>
// CHECK-NEXT: }) : (tensor<i1>) -> (tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<2xcomplex<f32>>, tensor<3xui8>)
// CHECK-NEXT: %3 = sdy.all_reduce {"x"} %2#0 out_sharding=<@mesh, [{}]> : tensor<4xi32>
// CHECK-NEXT: %4 = sdy.all_reduce {"x"} %2#1 out_sharding=<@mesh, [{}]> : tensor<4xi1>
// CHECK-NEXT: %5 = sdy.all_reduce {"x"} %2#2 out_sharding=<@mesh, []> : tensor<bf16>
// CHECK-NEXT: %6 = sdy.all_reduce {"x"} %2#3 out_sharding=<@mesh, [{}]> : tensor<2xcomplex<f32>>
// CHECK-NEXT: %7 = sdy.all_reduce {"x"} %2#4 out_sharding=<@mesh, [{}]> : tensor<3xui8>
// CHECK-NEXT: return %3, %4, %5, %6, %7 : tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<2xcomplex<f32>>, tensor<3xui8>
// CHECK-NEXT: }
func.func @element_types(%arg0: tensor<4xi32>, %arg1: tensor<4xi1>, %arg2: tensor<bf16>, %arg3: tensor<2xcomplex<f32>>, %arg4: tensor<3xui8>) -> (tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<2xcomplex<f32>>, tensor<3xui8>) {
  %0:5 = stablehlo.custom_call @foo(%arg0, %arg1, %arg2, %arg3, %arg4) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal, []>, <@maximal, []>, <@maximal, []>, <@maximal, []>]>} : (tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<2xcomplex<f32>>, tensor<3xui8>) -> (tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<2xcomplex<f32>>, tensor<3xui8>)
  return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<2xcomplex<f32>>, tensor<3xui8>
}

// -----

sdy.mesh @maximal = <[], device_ids=[1]>

// Without a mesh with axes there is nothing to all-reduce over: the module stays as it is.
// CHECK-LABEL: func.func @no_global_mesh(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %0 : tensor<4xf32>
// CHECK-NEXT: }
func.func @no_global_mesh(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @empty = <[]>
sdy.mesh @maximal = <[], device_ids=[1]>
sdy.mesh @mesh2 = <["a"=2, "b"=2]>
sdy.mesh @mesh = <["x"=2]>

// The all-reduce is over every axis of the first mesh with axes; an inlined maximal mesh is a device too.
// CHECK-LABEL: func.func @first_mesh_with_axes(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<5> : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.compare EQ, %0, %c : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// CHECK-NEXT: %2 = "stablehlo.if"(%1) ({
// CHECK-NEXT: %4 = stablehlo.custom_call @foo(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: stablehlo.return %4 : tensor<4xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: stablehlo.return %cst : tensor<4xf32>
// CHECK-NEXT: }) : (tensor<i1>) -> tensor<4xf32>
// CHECK-NEXT: %3 = sdy.all_reduce {"a", "b"} %2 out_sharding=<@mesh2, [{}]> : tensor<4xf32>
// CHECK-NEXT: return %3 : tensor<4xf32>
// CHECK-NEXT: }
func.func @first_mesh_with_axes(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<mesh<[], device_ids=[5]>, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[0]>

// Only a reshard to exactly the closed replicated sharding of the mesh goes.
// CHECK-LABEL: func.func @reshard_users(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.compare EQ, %0, %c : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// CHECK-NEXT: %2 = "stablehlo.if"(%1) ({
// CHECK-NEXT: %6 = stablehlo.custom_call @foo(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: stablehlo.return %6 : tensor<4xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: stablehlo.return %cst : tensor<4xf32>
// CHECK-NEXT: }) : (tensor<i1>) -> tensor<4xf32>
// CHECK-NEXT: %3 = sdy.all_reduce {"x"} %2 out_sharding=<@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT: %4 = sdy.reshard %3 <@mesh, [{?}]> : tensor<4xf32>
// CHECK-NEXT: %5 = sdy.reshard %3 <@mesh, [{"x"}]> : tensor<4xf32>
// CHECK-NEXT: return %4, %5, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
func.func @reshard_users(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = sdy.reshard %0 <@mesh, [{?}]> : tensor<4xf32>
  %2 = sdy.reshard %0 <@mesh, [{"x"}]> : tensor<4xf32>
  %3 = sdy.reshard %0 <@mesh, [{}]> : tensor<4xf32>
  %4 = sdy.reshard %0 <@mesh, [{}]> : tensor<4xf32>
  return %1, %2, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[0]>
sdy.mesh @maximal1 = <[], device_ids=[1]>

// Every operand reshard to a single device is bypassed, whichever device; one still used elsewhere stays.
// CHECK-LABEL: func.func @operand_reshards(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@maximal, []> : tensor<4xf32>
// CHECK-NEXT: %1 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<ui32>
// CHECK-NEXT: %3 = stablehlo.compare EQ, %2, %c : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// CHECK-NEXT: %4 = "stablehlo.if"(%3) ({
// CHECK-NEXT: %7 = stablehlo.custom_call @foo(%arg0, %arg0, %1, %arg0) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: stablehlo.return %7 : tensor<4xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: stablehlo.return %cst : tensor<4xf32>
// CHECK-NEXT: }) : (tensor<i1>) -> tensor<4xf32>
// CHECK-NEXT: %5 = sdy.all_reduce {"x"} %4 out_sharding=<@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT: %6 = stablehlo.negate %0 : tensor<4xf32>
// CHECK-NEXT: return %5, %6 : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
func.func @operand_reshards(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = sdy.reshard %arg0 <@maximal, []> : tensor<4xf32>
  %1 = sdy.reshard %arg0 <@maximal1, []> : tensor<4xf32>
  %2 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<4xf32>
  %3 = stablehlo.custom_call @foo(%0, %1, %2, %0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = stablehlo.negate %0 : tensor<4xf32>
  return %3, %4 : tensor<4xf32>, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[0]>

// Inner ops first: the loop body's op, then the loop (cloned with its resolved body).
// CHECK-LABEL: func.func @nested(%arg0: tensor<4xf32>, %arg1: tensor<i32>) -> tensor<4xf32> {
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.compare EQ, %0, %c : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// CHECK-NEXT: %2:2 = "stablehlo.if"(%1) ({
// CHECK-NEXT: %5:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<4xf32>, tensor<i32>
// CHECK-NEXT: cond {
// CHECK-NEXT: %c_1 = stablehlo.constant dense<3> : tensor<i32>
// CHECK-NEXT: %6 = stablehlo.compare LT, %iterArg_0, %c_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %6 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %6 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<0> : tensor<ui32>
// CHECK-NEXT: %7 = stablehlo.compare EQ, %6, %c_1 : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// CHECK-NEXT: %8 = "stablehlo.if"(%7) ({
// CHECK-NEXT: %10 = stablehlo.custom_call @foo(%iterArg) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: stablehlo.return %10 : tensor<4xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: stablehlo.return %cst : tensor<4xf32>
// CHECK-NEXT: }) : (tensor<i1>) -> tensor<4xf32>
// CHECK-NEXT: %9 = sdy.all_reduce {"x"} %8 out_sharding=<@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT: stablehlo.return %9, %iterArg_0 : tensor<4xf32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: stablehlo.return %5#0, %5#1 : tensor<4xf32>, tensor<i32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: stablehlo.return %cst, %c_0 : tensor<4xf32>, tensor<i32>
// CHECK-NEXT: }) : (tensor<i1>) -> (tensor<4xf32>, tensor<i32>)
// CHECK-NEXT: %3 = sdy.all_reduce {"x"} %2#0 out_sharding=<@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT: %4 = sdy.all_reduce {"x"} %2#1 out_sharding=<@mesh, []> : tensor<i32>
// CHECK-NEXT: return %3 : tensor<4xf32>
// CHECK-NEXT: }
func.func @nested(%arg0: tensor<4xf32>, %arg1: tensor<i32>) -> tensor<4xf32> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<4xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal, []>]>}
    cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.custom_call @foo(%iterArg) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %1, %iterArg_0 : tensor<4xf32>, tensor<i32>
  }
  return %0#0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>

// Other results may be replicated (unreduced axes do not count); ops without results, and sdy ops, stay.
// CHECK-LABEL: func.func @replicated_results(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT: stablehlo.custom_call @bar(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[]>} : (tensor<4xf32>) -> ()
// CHECK-NEXT: %0 = sdy.sharding_constraint %arg0 <@maximal, []> : tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<1> : tensor<ui32>
// CHECK-NEXT: %2 = stablehlo.compare EQ, %1, %c : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// CHECK-NEXT: %3:3 = "stablehlo.if"(%2) ({
// CHECK-NEXT: %7:3 = stablehlo.custom_call @foo(%0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: stablehlo.return %7#0, %7#1, %7#2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: stablehlo.return %cst, %cst_0, %cst_1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }) : (tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: %4 = sdy.all_reduce {"x"} %3#0 out_sharding=<@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT: %5 = sdy.all_reduce {"x"} %3#1 out_sharding=<@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT: %6 = sdy.all_reduce {"x"} %3#2 out_sharding=<@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT: return %4, %5, %6 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
func.func @replicated_results(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  stablehlo.custom_call @bar(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[]>} : (tensor<4xf32>) -> ()
  %0 = sdy.sharding_constraint %arg0 <@maximal, []> : tensor<4xf32>
  %1:3 = stablehlo.custom_call @foo(%0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@mesh, [{}], replicated={"x"}>, <@mesh, [{}], unreduced={"x"}>]>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return %1#0, %1#1, %1#2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
