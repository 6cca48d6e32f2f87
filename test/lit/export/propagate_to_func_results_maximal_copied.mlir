// RUN: pysdy-opt %s -sdy-propagate-to-func-results | filecheck %s
// REQUIRES: !func_results_skip_maximal

// Before jax 0.11, a returned value's maximal (single-device) sharding is copied to the function's result like any
// other. Expected output: jaxlib 0.10's C++ pass.

sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) -> tensor<8x6xf32> {
  %0:3 = call @callee(%arg0) : (tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>)
  return %0#2 : tensor<8x6xf32>
}

// CHECK-LABEL: func.func private @callee(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>})
// CHECK-SAME: -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}, tensor<8x6xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[1]>, []>}, tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
func.func private @callee(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<8x6xf32>, tensor<8x6xf32>) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<[], device_ids=[1]>, []>]>} : tensor<8x6xf32>
  %1 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x6xf32>
  return %arg0, %0, %1 : tensor<8x6xf32>, tensor<8x6xf32>, tensor<8x6xf32>
}
