// RUN: pysdy-opt %s --pass-pipeline="builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true}))" | filecheck %s
// REQUIRES: !all_reduce_follows_reduce_body

// jax 0.10's Shardy all-reduces the partial results of any reduce without a reduction kind, even of a maximum
// body; pysdy prints the same (neither pysdy-run nor pysdy.jax inserts explicit collectives).

// CHECK: sdy.mesh @mesh = <["x"=4]>
// CHECK-LABEL: func.func @max_over_sharded_dim(
// CHECK-SAME: %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
// CHECK-NEXT: %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT: %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT: return %1 : tensor<4xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=4]>
func.func @max_over_sharded_dim(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.maximum across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
