// RUN: pysdy-opt %s -split-input-file -sdy-insert-explicit-reshards | filecheck %s

// Unreduced axes reached by a value sharded along other axes (jaxlib 0.10.2 reshards first).
// Expected output: jaxlib's C++ pass on this input.

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

// A dimension whose target axes are not a prefix of its own is first resharded to them; the axes
// dropped from a dimension that only become unreduced go through sharded_to_unreduced.
// CHECK-LABEL: func.func @return_dim_not_a_prefix(%arg0: tensor<4x6xf32>) -> (tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"z"}], unreduced={"y"}>}) {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {?}]>]>} : tensor<4x6xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{"y", ?}, {"z"}]> : tensor<4x6xf32>
// CHECK-NEXT: %2 = sdy.sharded_to_unreduced [{"y"}, {}] %1 out_sharding=<@mesh, [{}, {"z"}], unreduced={"y"}> : tensor<4x6xf32>
// CHECK-NEXT: return %2 : tensor<4x6xf32>
// CHECK-NEXT: }
func.func @return_dim_not_a_prefix(%arg0: tensor<4x6xf32>) -> (tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"z"}], unreduced={"y"}>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {?}]>]>} : tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

// A dimension that drops an axis that does not become unreduced takes its target axes first; the new
// unreduced axis then goes through replicated_to_unreduced.
// CHECK-LABEL: func.func @return_dim_dropping_an_axis_kept_reduced(%arg0: tensor<4x6xf32>) -> (tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", "x"}, {}]>]>} : tensor<4x6xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{}, {}]> : tensor<4x6xf32>
// CHECK-NEXT: %2 = sdy.replicated_to_unreduced {"y"} %1 out_sharding=<@mesh, [{}, {}], unreduced={"y"}> : tensor<4x6xf32>
// CHECK-NEXT: return %2 : tensor<4x6xf32>
// CHECK-NEXT: }
func.func @return_dim_dropping_an_axis_kept_reduced(%arg0: tensor<4x6xf32>) -> (tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", "x"}, {}]>]>} : tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

// The same on a reshard: its operand is resharded, then made unreduced.
// CHECK-LABEL: func.func @reshard_dim_not_a_prefix(%arg0: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<4x6xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {"z"}]> : tensor<4x6xf32>
// CHECK-NEXT: %1 = sdy.sharded_to_unreduced [{"y"}, {}] %0 out_sharding=<@mesh, [{}, {"z"}], unreduced={"y"}> : tensor<4x6xf32>
// CHECK-NEXT: %2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{}, {"z"}]> : tensor<4x6xf32>
// CHECK-NEXT: return %2 : tensor<4x6xf32>
// CHECK-NEXT: }
func.func @reshard_dim_not_a_prefix(%arg0: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<4x6xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {"z"}], unreduced={"y"}> : tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

// Both kinds at once, and the dimension already sharded like its target is kept.
// CHECK-LABEL: func.func @return_prefix_and_non_prefix_dims(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"z"}], unreduced={"y"}>}) {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : tensor<8x6xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@mesh, [{"x", "y"}, {"z"}]> : tensor<8x6xf32>
// CHECK-NEXT: %2 = sdy.sharded_to_unreduced [{"y"}, {}] %1 out_sharding=<@mesh, [{"x"}, {"z"}], unreduced={"y"}> : tensor<8x6xf32>
// CHECK-NEXT: return %2 : tensor<8x6xf32>
// CHECK-NEXT: }
func.func @return_prefix_and_non_prefix_dims(%arg0: tensor<8x6xf32>) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"z"}], unreduced={"y"}>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
