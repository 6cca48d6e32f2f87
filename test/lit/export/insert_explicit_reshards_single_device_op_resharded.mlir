// RUN: pysdy-opt %s --pass-pipeline="builtin.module(func.func(sdy-insert-explicit-reshards))" | filecheck %s
// REQUIRES: reshards_around_single_device_ops

// From jax 0.11, the sharded operand of an op on a maximal mesh (a host callback) is resharded to its device
// through replicated on the module's first non-maximal mesh, and its result back to replicated there.

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK: sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// CHECK-LABEL: func.func @host_callback_on_sharded_operand(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@maximal_mesh_0, []> : tensor<8x8xf32>
// CHECK-NEXT: %2 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%1) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.reshard %2 <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %4 = stablehlo.add %3, %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %4 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
func.func @host_callback_on_sharded_operand(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
