// RUN: pysdy-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true mark-partial-result-with-unreduced-axes=true}))" | filecheck %s
// REQUIRES: reshards_mark_partial_results_unreduced

// From jax 0.11, insert-explicit-reshards can mark an op's partial results with the unreduced axes it then
// all-reduces (with a reduce's body reduction, as max{...}).

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-LABEL: func.func @dot_over_sharded_contraction(
// CHECK-SAME: %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
// CHECK-NEXT: %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x4xf32>
// CHECK-NEXT: return %1 : tensor<8x4xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @dot_over_sharded_contraction(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK-LABEL: func.func @reduce_max(
// CHECK-SAME: %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4xf32> {
// CHECK-NEXT: %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT: %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=max{"x"}>]>} : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: %1 = sdy.all_reduce max {"x"} %0 out_sharding=<@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT: return %1 : tensor<4xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @reduce_max(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.maximum across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK-LABEL: func.func @dot_partly_unreduced(
// CHECK-SAME: %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}, %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<8x4xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"z"}, {"x", "y"}]> : tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}, {}], unreduced={"x", "y"}>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{"z"}, {}], unreduced={"x"}> : tensor<8x4xf32>
// CHECK-NEXT: %3 = sdy.all_reduce {"x"} %2 out_sharding=<@mesh, [{"z"}, {}]> : tensor<8x4xf32>
// CHECK-NEXT: %4 = sdy.reshard %3 <@mesh, [{}, {}]> : tensor<8x4xf32>
// CHECK-NEXT: return %4 : tensor<8x4xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @dot_partly_unreduced(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}, %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}, {}], unreduced={"x"}>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK-LABEL: func.func @reduce_two_results(
// CHECK-SAME: %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {"x"}]> : tensor<8x4xf32>
// CHECK-NEXT: %1 = sdy.reshard %arg1 <@mesh, [{"y"}, {"x"}]> : tensor<8x4xf32>
// CHECK-NEXT: %2:2 = stablehlo.reduce(%0 init: %cst), (%1 init: %cst) across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}], unreduced={"y"}>, <@mesh, [{"x"}], unreduced={"y"}>]>} : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: reducer(%arg2: tensor<f32>, %arg4: tensor<f32>) (%arg3: tensor<f32>, %arg5: tensor<f32>)  {
// CHECK-NEXT: %7 = stablehlo.add %arg2, %arg4 : tensor<f32>
// CHECK-NEXT: %8 = stablehlo.add %arg3, %arg5 : tensor<f32>
// CHECK-NEXT: stablehlo.return %7, %8 : tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %3 = sdy.all_reduce {"y"} %2#0 out_sharding=<@mesh, [{"x"}]> : tensor<4xf32>
// CHECK-NEXT: %4 = sdy.all_reduce {"y"} %2#1 out_sharding=<@mesh, [{"x"}]> : tensor<4xf32>
// CHECK-NEXT: %5 = sdy.reshard %4 <@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT: %6 = sdy.reshard %3 <@mesh, [{}]> : tensor<4xf32>
// CHECK-NEXT: return %6, %5 : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @reduce_two_results(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<4xf32>, tensor<4xf32>) {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0:2 = stablehlo.reduce(%arg0 init: %init), (%arg1 init: %init) across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{}]>]>} : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<f32>, %d: tensor<f32>) {
    %3 = stablehlo.add %a, %c : tensor<f32>
    %5 = stablehlo.add %b, %d : tensor<f32>
    stablehlo.return %3, %5 : tensor<f32>, tensor<f32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
