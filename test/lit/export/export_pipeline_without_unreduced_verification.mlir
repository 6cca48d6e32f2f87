// RUN: pysdy-opt %s -sdy-export-pipeline | filecheck %s
// REQUIRES: !verify_unreduced_axes

// Before jax 0.11 there is no sdy-verify-unreduced-axes: the export pipeline all-reduces the unreduced operand of
// an op that drops its unreduced axes (once per use), and the pass itself is unknown.
//
// RUN: not pysdy-opt %s -sdy-verify-unreduced-axes 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: unknown option or pass 'sdy-verify-unreduced-axes'

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-LABEL: func.func @add_drops_unreduced_axis(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @add_drops_unreduced_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
