// RUN: pysdy-opt %s -sdy-basic-propagate=debug-sharding-origins=true | filecheck %s
// REQUIRES: origins_skip_manual_computations_without_edges

// From jaxlib 0.12, a manual computation without any data-flow edge gets its origin name and gives no origins:
// its operand keeps its own (`self`), and the abs of its result, like the function result, records none.
// Expected output: jaxlib 0.12's C++ pass.

sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func.func @manual_computation_without_edges(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>, sdy.sharding_origins = {a = "self"}}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
// CHECK-NEXT: %2 = stablehlo.abs %arg1 : tensor<4xf32>
// CHECK-NEXT: sdy.return %2 : tensor<4xf32>
// CHECK-NEXT: } {sdy.sharding_origin_name = "mc_0"} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<8xf32>
// CHECK-NEXT: return %1 : tensor<8xf32>
func.func @manual_computation_without_edges(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%x: tensor<4xf32>) {
    %1 = stablehlo.abs %x : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %2 = stablehlo.abs %0 : tensor<8xf32>
  return %2 : tensor<8xf32>
}
