// RUN: pysdy-opt %s -sdy-insert-explicit-reshards -split-input-file -verify-diagnostics | filecheck %s
// REQUIRES: reshards_around_single_device_ops

// A single-device op's operands and results go through the global mesh: the module's first mesh with axes (an
// empty mesh before it is not one). An operand replicated on another mesh is first replicated on the global mesh.

sdy.mesh @empty = <[]>
sdy.mesh @mesh = <["x"=2]>
sdy.mesh @other = <["y"=2]>
sdy.mesh @dev0 = <[], device_ids=[0]>

// CHECK-LABEL: func.func @replicated_on_another_mesh(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@dev0, []> : tensor<8xf32>
// CHECK-NEXT: %2 = stablehlo.custom_call @host(%1) {sdy.sharding = #sdy.sharding_per_value<[<@dev0, []>]>}
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{}]> : tensor<8xf32>
// CHECK-NEXT: return %3
func.func @replicated_on_another_mesh(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@other, [{}]>}) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @host(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@dev0, []>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @dev0 = <[], device_ids=[0]>
sdy.mesh @dev1 = <[], device_ids=[1]>

// Without a global mesh nothing is resharded, but results on two devices are still an error.
func.func @conflicting_devices_without_global_mesh(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // expected-error@+1 {{'stablehlo.custom_call' op has conflicting single-device result shardings}}
  %0:2 = stablehlo.custom_call @host(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@dev0, []>, <@dev1, []>]>} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @dev0 = <[], device_ids=[0]>

// CHECK-LABEL: func.func @no_global_mesh_left_as_is(
// CHECK-NEXT: %0 = stablehlo.custom_call @host(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@dev0, []>]>}
// CHECK-NEXT: return %0
func.func @no_global_mesh_left_as_is(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @host(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@dev0, []>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
