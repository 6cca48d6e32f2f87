sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal = <[], device_ids=[3]>
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
func.func @token_result(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, !stablehlo.token) {
  %t = stablehlo.create_token : !stablehlo.token
  %1:2 = stablehlo.custom_call @foo(%arg0, %t) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal, []>]>} : (tensor<8x8xf32>, !stablehlo.token) -> (tensor<8x8xf32>, !stablehlo.token)
  return %1#0, %1#1 : tensor<8x8xf32>, !stablehlo.token
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @element_types(%arg0: tensor<4xi32>, %arg1: tensor<4xi1>, %arg2: tensor<bf16>, %arg3: tensor<4xf8E4M3FN>, %arg4: tensor<3xui8>) -> (tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<4xf8E4M3FN>, tensor<3xui8>) {
  %0:5 = stablehlo.custom_call @foo(%arg0, %arg1, %arg2, %arg3, %arg4) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal, []>, <@maximal, []>, <@maximal, []>, <@maximal, []>]>} : (tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<4xf8E4M3FN>, tensor<3xui8>) -> (tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<4xf8E4M3FN>, tensor<3xui8>)
  return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<4xi32>, tensor<4xi1>, tensor<bf16>, tensor<4xf8E4M3FN>, tensor<3xui8>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @complex_result(%arg0: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @mixed_replicated(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@mesh, [{}], replicated={"x"}>]>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

sdy.mesh @maximal = <[], device_ids=[1]>
func.func @no_global_mesh(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @empty = <[]>
sdy.mesh @maximal = <[], device_ids=[1]>
sdy.mesh @mesh2 = <["a"=2, "b"=2]>
sdy.mesh @mesh = <["x"=2]>
func.func @global_is_first_with_axes(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @inlined(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<mesh<[], device_ids=[5]>, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @empty = <[]>
func.func @empty_mesh(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@empty, [{}]>]>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[0]>
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
sdy.mesh @maximal = <[], device_ids=[0]>
func.func @no_results_and_scalar(%arg0: tensor<f32>) -> tensor<f32> {
  stablehlo.custom_call @bar(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[]>} : (tensor<f32>) -> ()
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>, mhlo.frontend_attributes = {a = "b"}} : tensor<f32>
  return %0 : tensor<f32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
sdy.mesh @maximal2 = <[], device_ids=[2]>
func.func @two_devices(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal2, []>]>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @sharded_other(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@mesh, [{"x"}]>]>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @dynamic(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @same_twice_and_unsharded_result(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0:3 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@mesh, [{?}]>, <@maximal, []>]>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1, %0#2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @tuple_result(%arg0: tensor<4xf32>) -> tuple<tensor<4xf32>> {
  %0 = stablehlo.tuple %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : tuple<tensor<4xf32>>
  return %0 : tuple<tensor<4xf32>>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @manual(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
    %1 = stablehlo.custom_call @foo(%a) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<2xf32>) -> tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @unreduced_other(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@mesh, [{}], unreduced={"x"}>]>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2], device_ids=[1, 0]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @device_ids_mesh(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[7]>
func.func @func_result_maximal(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}) {
  %0 = sdy.data_flow_edge %arg0 sharding=<@maximal, []> : tensor<4xf32>
  %1 = sdy.sharding_constraint %0 <@maximal, []> : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @reshard_used_twice(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.reshard %arg0 <@maximal, []> : tensor<4xf32>
  %1 = stablehlo.custom_call @foo(%0, %0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @tuple_and_tensor(%arg0: tensor<4xf32>) -> (tuple<tensor<4xf32>>, tensor<4xf32>) {
  %0:2 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>, <@maximal, []>]>} : (tensor<4xf32>) -> (tuple<tensor<4xf32>>, tensor<4xf32>)
  return %0#0, %0#1 : tuple<tensor<4xf32>>, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @empty = <[]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @reshard_kinds(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.reshard %arg0 <@empty, [{}]> : tensor<4xf32>
  %1 = sdy.reshard %arg0 <mesh<[], device_ids=[4]>, []> : tensor<4xf32>
  %2 = sdy.sharding_constraint %arg0 <@maximal, []> : tensor<4xf32>
  %3 = stablehlo.custom_call @foo(%0, %1, %2) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @chain(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = sdy.reshard %0 <@maximal, []> : tensor<4xf32>
  %2 = stablehlo.custom_call @bar(%1, %0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = sdy.reshard %2 <@mesh, [{}]> : tensor<4xf32>
  %4 = sdy.reshard %2 <@mesh, [{}]> : tensor<4xf32>
  %5 = stablehlo.add %3, %4 : tensor<4xf32>
  return %5 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @token_only(%arg0: !stablehlo.token) -> !stablehlo.token {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (!stablehlo.token) -> !stablehlo.token
  return %0 : !stablehlo.token
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @reshard_replicated_other_forms(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = sdy.reshard %0 <@mesh, [{}], replicated={"x"}> : tensor<4xf32>
  %2 = sdy.reshard %0 <mesh<["x"=2, "y"=2]>, [{}]> : tensor<4xf32>
  %3 = sdy.reshard %0 <@mesh, [{}]> : tensor<4xf32>
  return %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @other_func_untouched(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @g(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @g(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @inlined_meshes_only(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}]>}) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<mesh<[], device_ids=[0]>, []>]>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
