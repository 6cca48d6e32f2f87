// RUN: pysdy-opt %s --pass-pipeline="builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true}))" | filecheck %s
// REQUIRES: mixed_reduce_left_unreduced

// jax 0.12's Shardy leaves the partial results of a reduce of several inputs with a body of mixed reductions (an
// argmax) as they are, neither all-reduced nor marked unreduced: its sdy-convert-global-to-local gathers them and
// reduces them again (see convert_global_to_local_finishing.mlir).

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func @argmax_over_sharded_dim
func.func @argmax_over_sharded_dim(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %1 = stablehlo.constant dense<0> : tensor<i32>
  // CHECK:      %[[REDUCE:.*]]:2 = stablehlo.reduce(%arg0 init: %{{.*}}), (%arg1 init: %{{.*}}) across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>}
  // CHECK-NOT:  sdy.all_reduce
  // CHECK:      return %[[REDUCE]]#0, %[[REDUCE]]#1
  %2:2 = stablehlo.reduce(%arg0 init: %0), (%arg1 init: %1) across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : (tensor<8x4xf32>, tensor<8x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>) {
    %3 = stablehlo.compare GE, %a, %c : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %a, %c : tensor<i1>, tensor<f32>
    %5 = stablehlo.select %3, %b, %d : tensor<i1>, tensor<i32>
    stablehlo.return %4, %5 : tensor<f32>, tensor<i32>
  }
  return %2#0, %2#1 : tensor<4xf32>, tensor<4xi32>
}
