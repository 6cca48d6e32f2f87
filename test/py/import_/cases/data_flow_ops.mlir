sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x2xf32>, %arg1: tensor<i32>, %t: !stablehlo.token) -> (tensor<8x2xf32>) {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x2xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, []>]>}
    cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %iterArg : tensor<8x2xf32>
    stablehlo.return %1, %iterArg_0 : tensor<8x2xf32>, tensor<i32>
  }
  %2 = "stablehlo.case"(%arg1) ({
    stablehlo.return %0#0 : tensor<8x2xf32>
  }, {
    stablehlo.return %arg0 : tensor<8x2xf32>
  }) : (tensor<i32>) -> tensor<8x2xf32>
  %3:2 = stablehlo.optimization_barrier %2, %t : tensor<8x2xf32>, !stablehlo.token
  %p = stablehlo.compare EQ, %arg1, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %4 = "stablehlo.if"(%p) ({
    stablehlo.return %3#0 : tensor<8x2xf32>
  }, {
    stablehlo.return %arg0 : tensor<8x2xf32>
  }) : (tensor<i1>) -> tensor<8x2xf32>
  %5 = sdy.named_computation<"foo">(%4) (%a: tensor<8x2xf32>) {
    sdy.return %a : tensor<8x2xf32>
  } : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %6 = sdy.manual_computation(%5) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%b: tensor<4x2xf32>) {
    sdy.return %b : tensor<4x2xf32>
  } : (tensor<8x2xf32>) -> tensor<8x2xf32>
  return %6 : tensor<8x2xf32>
}
// -----
sdy.mesh @mesh = <["a"=2, "b"=4, "c"=2]>
func.func @nested(%arg0: tensor<16x8xf32>, %arg1: tensor<i32>, %t: !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token) {
  %0:2 = sdy.named_computation<"outer">(%arg0, %arg1, %t) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, []>, <@mesh, []>] out_shardings=[<@mesh, [{"b", ?}, {}]>, <@mesh, []>] (%x: tensor<16x8xf32>, %i: tensor<i32>, %tok: !stablehlo.token) {
    %1:3 = stablehlo.while(%iterArg = %x, %iterArg_0 = %i, %iterTok = %tok) : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
      cond {
      %c = stablehlo.constant dense<3> : tensor<i32>
      %2 = stablehlo.compare  LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2 = sdy.manual_computation(%iterArg) in_shardings=[<@mesh, [{"a", "b":(1)2}, {"c"}], replicated={"b":(2)2}>] out_shardings=[<@mesh, [{"a", "b":(1)2, ?}, {}], unreduced={"c"}>] manual_axes={"a", "b"} (%m: tensor<4x8xf32>) {
        %3 = stablehlo.add %m, %m : tensor<4x8xf32>
        sdy.return %3 : tensor<4x8xf32>
      } : (tensor<16x8xf32>) -> tensor<16x8xf32>
      stablehlo.return %2, %iterArg_0, %iterTok : tensor<16x8xf32>, tensor<i32>, !stablehlo.token
    }
    sdy.return %1#0, %1#2 : tensor<16x8xf32>, !stablehlo.token
  } : (tensor<16x8xf32>, tensor<i32>, !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token)
  %4:2 = "stablehlo.case"(%arg1) ({
    stablehlo.return %0#0, %arg1 : tensor<16x8xf32>, tensor<i32>
  }, {
    stablehlo.return %arg0, %arg1 : tensor<16x8xf32>, tensor<i32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"c"}p0]>, <@mesh, []>]>} : (tensor<i32>) -> (tensor<16x8xf32>, tensor<i32>)
  return %4#0, %0#1 : tensor<16x8xf32>, !stablehlo.token
}
