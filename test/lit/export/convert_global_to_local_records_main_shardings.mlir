// RUN: pysdy-opt %s -sdy-convert-global-to-local | filecheck %s
// REQUIRES: convert_global_to_local_records_main_shardings

// From jax 0.12, sdy-convert-global-to-local records @main's global argument and result shardings on the module,
// meshes inlined, an unsharded one fully replicated on the module's mesh.

// CHECK: module attributes {sdy.output_shardings = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>, <mesh<["x"=2, "y"=4]>, [{}]>]>, sdy.parameters_shardings = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>, <mesh<["x"=2, "y"=4]>, [{}]>]>} {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @main(%arg0: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<4xf32>) -> (tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<4xf32>) {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<4x16xf32>
// CHECK-NEXT: return %0, %arg1 : tensor<4x16xf32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<4xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<4xf32>) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
  return %0, %arg1 : tensor<8x16xf32>, tensor<4xf32>
}
