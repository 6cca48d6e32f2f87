// RUN: not pysdy-opt %s -sdy-lift-inlined-meshes=use-single-device-mesh-names=true 2>&1 | filecheck %s
// REQUIRES: !lift_meshes_single_device_names_option

// Before jax 0.12, sdy-lift-inlined-meshes has no use-single-device-mesh-names option.

// CHECK: no such option 'use-single-device-mesh-names' for pass 'sdy-lift-inlined-meshes'
func.func @inlined_maximal_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<mesh<[], device_ids=[1]>, []>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
