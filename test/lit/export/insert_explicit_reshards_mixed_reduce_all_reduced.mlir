// RUN: pysdy-opt %s --pass-pipeline="builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true}))" | filecheck %s
// REQUIRES: !mixed_reduce_left_unreduced

// Before jax 0.12, the partial results of a reduce of several inputs with a body of mixed reductions (an argmax)
// are all-reduced without a reduction kind, as the C++ does (neither pysdy-run nor pysdy.jax inserts explicit
// collectives).

// CHECK: sdy.mesh @mesh = <["x"=4]>
// CHECK-LABEL: func.func @argmax_over_sharded_dim(
// CHECK-SAME: %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4xf32>, tensor<4xi32>) {
// CHECK-NEXT: %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %0:2 = stablehlo.reduce(%arg0 init: %cst), (%arg1 init: %c) across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : (tensor<8x4xf32>, tensor<8x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
// CHECK-NEXT: reducer(%arg2: tensor<f32>, %arg4: tensor<f32>) (%arg3: tensor<i32>, %arg5: tensor<i32>)  {
// CHECK-NEXT: %3 = stablehlo.compare GE, %arg2, %arg4 : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT: %4 = stablehlo.select %3, %arg2, %arg4 : tensor<i1>, tensor<f32>
// CHECK-NEXT: %5 = stablehlo.select %3, %arg3, %arg5 : tensor<i1>, tensor<i32>
// CHECK-NEXT: stablehlo.return %4, %5 : tensor<f32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = sdy.all_reduce {"x"} %0#0 out_sharding=<@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT: %2 = sdy.all_reduce {"x"} %0#1 out_sharding=<@mesh, [{}]> : tensor<4xi32>
// CHECK-NEXT: return %1, %2 : tensor<4xf32>, tensor<4xi32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=4]>
func.func @argmax_over_sharded_dim(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %1 = stablehlo.constant dense<0> : tensor<i32>
  %2:2 = stablehlo.reduce(%arg0 init: %0), (%arg1 init: %1) across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : (tensor<8x4xf32>, tensor<8x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>) {
    %3 = stablehlo.compare GE, %a, %c : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %a, %c : tensor<i1>, tensor<f32>
    %5 = stablehlo.select %3, %b, %d : tensor<i1>, tensor<i32>
    stablehlo.return %4, %5 : tensor<f32>, tensor<i32>
  }
  return %2#0, %2#1 : tensor<4xf32>, tensor<4xi32>
}
