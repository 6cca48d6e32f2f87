sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8x8xf32>
  %s = stablehlo.constant dense<2.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %sc = sdy.sharding_constraint %c <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  sdy.sharding_group %c group_id=3 : tensor<8x8xf32>
  %k = call @const_fn() : () -> tensor<8x8xf32>
  %k2 = stablehlo.add %k, %c : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8x8xf32>
  %1 = stablehlo.multiply %0, %c : tensor<8x8xf32>
  %2 = stablehlo.multiply %1, %b : tensor<8x8xf32>
  %3 = stablehlo.add %2, %b : tensor<8x8xf32>
  %4 = stablehlo.add %3, %sc : tensor<8x8xf32>
  %5 = stablehlo.add %4, %k2 : tensor<8x8xf32>
  %6 = call @non_const(%5) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %7 = sdy.named_computation<"nc">(%c) (%x: tensor<8x8xf32>) {
    %d = stablehlo.constant dense<3.0> : tensor<8x8xf32>
    %e = stablehlo.add %x, %d : tensor<8x8xf32>
    %f = stablehlo.add %e, %d : tensor<8x8xf32>
    sdy.return %f : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %8 = stablehlo.add %7, %c : tensor<8x8xf32>
  %9 = sdy.named_computation<"cnc">() () {
    %d = stablehlo.iota dim = 0 : tensor<8x8xf32>
    sdy.return %d : tensor<8x8xf32>
  } : () -> tensor<8x8xf32>
  %10 = stablehlo.add %9, %arg0 : tensor<8x8xf32>
  %11 = stablehlo.add %9, %10 : tensor<8x8xf32>
  return %6, %8, %11 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
func.func private @const_fn() -> tensor<8x8xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<8x8xf32>
  %d = stablehlo.negate %c : tensor<8x8xf32>
  return %d : tensor<8x8xf32>
}
func.func private @non_const(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8x8xf32>
  %1 = stablehlo.add %0, %c : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
// -----
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8xf32>, tensor<i32>
    cond {
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg_0, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %c : tensor<8xf32>
    %2 = stablehlo.add %1, %c : tensor<8xf32>
    stablehlo.return %2, %iterArg_0 : tensor<8xf32>, tensor<i32>
  }
  %r = stablehlo.reshape %c : (tensor<8xf32>) -> tensor<2x4xf32>
  %r2 = stablehlo.reshape %r : (tensor<2x4xf32>) -> tensor<8xf32>
  %3 = stablehlo.add %0#0, %r2 : tensor<8xf32>
  %4 = stablehlo.add %3, %r2 : tensor<8xf32>
  return %4 : tensor<8xf32>
}
