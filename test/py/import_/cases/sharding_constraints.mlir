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
