sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %arg1 <@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
  %3 = stablehlo.multiply %0, %2 : tensor<8x8xf32>
  %4 = sdy.sharding_constraint %arg2 <@mesh, [{}, {"b"}], unreduced={"a"}> : tensor<8x8xf32>
  %5 = stablehlo.negate %arg2 : tensor<8x8xf32>
  %6 = stablehlo.abs %arg0 : tensor<8x8xf32>
  %7 = sdy.sharding_constraint %6 <@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  %8 = sdy.sharding_constraint %7 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %9 = stablehlo.add %6, %6 : tensor<8x8xf32>
  %10 = stablehlo.add %9, %8 : tensor<8x8xf32>
  %11 = sdy.manual_computation(%5) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%b: tensor<4x8xf32>) {
    sdy.return %b : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %10, %11 : tensor<8x8xf32>, tensor<8x8xf32>
}
// -----
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<i32>) -> tensor<8x8xf32> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
    cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = sdy.sharding_constraint %iterArg <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
    %2 = stablehlo.add %1, %iterArg : tensor<8x8xf32>
    stablehlo.return %2, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  %5 = stablehlo.negate %0#0 : tensor<8x8xf32>
  %6 = sdy.sharding_constraint %0#0 <@mesh, [{"b"}, {}], unreduced={"a"}> : tensor<8x8xf32>
  %11 = sdy.manual_computation(%0#0) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"b"} (%b: tensor<4x8xf32>) {
    sdy.return %b : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %7 = stablehlo.add %6, %11 : tensor<8x8xf32>
  return %7 : tensor<8x8xf32>
}
// -----
sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @other = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}, %arg1: tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<f32>, tensor<f32>) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %1 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@other, [{?}, {?}]>]>} : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"b"}], unreduced={"a"}> : tensor<8x8xf32>
  %3 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {}]>]>} : tensor<8x8xf32>
  %4 = sdy.sharding_constraint %3 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %5 = stablehlo.exponential %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}], replicated={"a"}>]>} : tensor<8x8xf32>
  %6 = sdy.sharding_constraint %5 <@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  %7 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : tensor<f32>
  %8 = sdy.sharding_constraint %7 <@mesh, [], unreduced={"a"}> : tensor<f32>
  %9 = sdy.sharding_constraint %arg1 <@mesh, [], replicated={"b"}> : tensor<f32>
  %10 = stablehlo.add %0, %2 : tensor<8x8xf32>
  %11 = stablehlo.add %1, %3 : tensor<8x8xf32>
  %12 = stablehlo.add %4, %6 : tensor<8x8xf32>
  %13 = stablehlo.add %5, %12 : tensor<8x8xf32>
  %14 = stablehlo.add %8, %9 : tensor<f32>
  %15 = stablehlo.add %7, %14 : tensor<f32>
  return %10, %11, %12, %13, %14, %15 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<f32>, tensor<f32>
}
// -----
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xi32>, %arg2: tensor<f32>) -> (tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %c1 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%arg0 init: %c), (%arg1 init: %c1) across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [], replicated={"b"}>]>} : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%c2: tensor<i32>, %d: tensor<i32>)  {
    %8 = stablehlo.add %a, %b : tensor<f32>
    %9 = stablehlo.add %c2, %d : tensor<i32>
    stablehlo.return %8, %9 : tensor<f32>, tensor<i32>
  }
  %1 = sdy.sharding_constraint %0#0 <@mesh, [], unreduced={"a"}> : tensor<f32>
  %2 = sdy.sharding_constraint %0#1 <@mesh, [], unreduced={"a"}> : tensor<i32>
  %3:2 = stablehlo.custom_call @foo(%arg2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, []>]>} : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  %4 = sdy.sharding_constraint %3#1 <@mesh, [], replicated={"a"}> : tensor<f32>
  %5 = sdy.sharding_constraint %4 <@mesh, [], replicated={"a", "b"}> : tensor<f32>
  %6 = stablehlo.add %1, %0#0 : tensor<f32>
  %7 = stablehlo.add %3#1, %5 : tensor<f32>
  return %6, %2, %7, %3#0 : tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>
}
// -----
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<i32>) -> (tensor<8x8xf32>, tensor<i32>) {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>, <@mesh, []>]>}
    cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    stablehlo.return %iterArg, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  %1 = sdy.sharding_constraint %0#0 <@mesh, [{"a"}, {}], unreduced={"b"}> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %0#1 <@mesh, [], unreduced={"a"}> : tensor<i32>
  %3 = stablehlo.add %1, %0#0 : tensor<8x8xf32>
  %4 = stablehlo.add %2, %0#1 : tensor<i32>
  return %3, %4 : tensor<8x8xf32>, tensor<i32>
}
