// RUN: pysdy-opt %s -pysdy-xla-hand-off | filecheck %s

// On the sdy route, each op's sharding goes onto sharding constraints on its used results, as JAX writes shardings:
// the loop and the barrier lose theirs, and their used results are constrained right after them. An unreduced
// sharding (the multiply's partial result) and a maximal one (the host callback's device) stay on their ops, and
// the function keeps its argument and result shardings.

// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
// CHECK:         %0:3 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0, %iterArg_1 = %arg1) : tensor<i32>, tensor<8x16xf32>, tensor<8x16xf32>{{$}}
// CHECK:         %4:2 = stablehlo.optimization_barrier %iterArg_0, %iterArg_1 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT:    %5 = sdy.sharding_constraint %4#0 <@mesh, [{"x"}, {"y"}]> : tensor<8x16xf32>
// CHECK-NEXT:    %6 = sdy.sharding_constraint %4#1 <@mesh, [{"x"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:    %7 = stablehlo.multiply %6, %5 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}], unreduced={"y"}>]>} : tensor<8x16xf32>
// CHECK-NEXT:    stablehlo.return %3, %iterArg_0, %7 : tensor<i32>, tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %1 = sdy.sharding_constraint %0#2 <@mesh, [{"x"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT:  %2 = stablehlo.custom_call @callback(%1) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:  return %2 : tensor<8x16xf32>
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:3 = stablehlo.while(%i = %c0, %w = %arg0, %acc = %arg1) : tensor<i32>, tensor<8x16xf32>, tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{"x"}, {"y"}]>, <@mesh, [{"x"}, {}]>]>}
  cond {
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %i, %c1 : tensor<i32>
    %2:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"x"}, {}]>]>} %w, %acc : tensor<8x16xf32>, tensor<8x16xf32>
    %3 = stablehlo.multiply %2#1, %2#0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}], unreduced={"y"}>]>} : tensor<8x16xf32>
    stablehlo.return %1, %w, %3 : tensor<i32>, tensor<8x16xf32>, tensor<8x16xf32>
  }
  %4 = stablehlo.custom_call @callback(%0#2) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}
