// RUN: pysdy-opt %s -sdy-lift-inlined-meshes=use-single-device-mesh-names=true | filecheck %s
// RUN: pysdy-opt %s -sdy-lift-inlined-meshes | filecheck %s --check-prefix=DEFAULT
// REQUIRES: lift_meshes_single_device_names_option

// From jax 0.12, sdy-lift-inlined-meshes can name a lifted maximal mesh single_device_<id> (as XLA's import does);
// by default it stays maximal_mesh_<id>.

// CHECK: sdy.mesh @mesh = <["x"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}]}}
// CHECK-NEXT: sdy.mesh @single_device_1 = <[], device_ids=[1]> {stablehlo.mesh = {axes = [], device_ids = dense<1> : tensor<1xi64>}}
// CHECK-LABEL: func.func @inlined_maximal_mesh(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
// CHECK-NEXT: %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@single_device_1, []>]>} : (tensor<8xf32>) -> tensor<8xf32>

// DEFAULT: sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
// DEFAULT: sdy.sharding_per_value<[<@maximal_mesh_1, []>]>
func.func @inlined_maximal_mesh(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<mesh<[], device_ids=[1]>, []>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
