// RUN: pysdy-opt %s -sdy-remove-size-one-axes | filecheck %s
// REQUIRES: unreduced_reduction_kinds

// Removing size-one axes from the dimension, replicated and unreduced lists keeps how the unreduced axes left are
// to be reduced (max, min).

sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1, "d"=2]>

// CHECK-LABEL: func.func @kinds_kept(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}], unreduced=min{"d"}>})
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced=max{"d"}>}) {
func.func @kinds_kept(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}], replicated={"c"}, unreduced=min{"d"}>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], replicated={"a"}, unreduced=max{"c", "d"}>}) {
  // CHECK-NEXT: %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}], replicated={"d"}>]>}
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b", "c"}], replicated={"d"}, unreduced=max{"a"}>]>} : tensor<8x8xf32>
  // CHECK-NEXT: %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}], unreduced=max{"d"}>]>}
  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}], unreduced=max{"a", "d"}>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
