// RUN: pysdy-opt %s -split-input-file -sdy-insert-explicit-reshards | filecheck %s
// REQUIRES: unreduced_reduction_kinds

// A value whose unreduced axes its user does not keep is all-reduced with the values' own reduction kind.

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @min_unreduced_to_replicated(
// CHECK-NEXT: %0 = sdy.all_reduce min {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
func.func @min_unreduced_to_replicated(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced=min{"x"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Only the axes the user drops are reduced; the kept one keeps its kind.
// CHECK-LABEL: func.func @max_unreduced_partly_kept(
// CHECK-NEXT: %0 = sdy.all_reduce max {"y"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced=max{"x"}> : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced=max{"x"}>]>}
func.func @max_unreduced_partly_kept(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced=max{"x", "y"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced=max{"x"}>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced=max{"x"}>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// A replicated value made unreduced for a max result is marked with max, the kind it is to be reduced with.
// CHECK-LABEL: func.func @replicated_to_max_unreduced(
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}
// CHECK-NEXT: %1 = sdy.replicated_to_unreduced {"x"} %0 out_sharding=<@mesh, [{}], unreduced=max{"x"}> : tensor<8xf32>
// CHECK-NEXT: return %1 : tensor<8xf32>
func.func @replicated_to_max_unreduced(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=max{"x"}>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
