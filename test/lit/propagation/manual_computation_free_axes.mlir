// RUN: pysdy-opt %s -sdy-propagation-pipeline -split-input-file | filecheck %s

// JAX's shard_map test_partially_sharded_dim_with_auto: the free axis "j" reaches the body from the constraint
// after the computation, but not its out_shardings, whose dim (4) is smaller than "i" and "j" (8).
// CHECK: sdy.mesh @mesh = <["i"=4, "j"=2]> {stablehlo.mesh = {axes = [{name = "i", size = 4 : i64}, {name = "j", size = 2 : i64}]}}
// CHECK-LABEL: func.func @free_axis_does_not_fit_the_result_dim(
// CHECK-SAME:      %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i", "j"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}]>}) {
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@mesh, [{"i", "j"}]> : tensor<8xf32>
// CHECK-NEXT:    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"i", "j"}]>] out_shardings=[<@mesh, [{"i"}]>] manual_axes={"i"} (%arg1: tensor<2xf32>) {
// CHECK-NEXT:      %3 = sdy.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %4 = stablehlo.reduce(%arg1 init: %3) applies stablehlo.add across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:      %5 = sdy.reshard %4 <@mesh, []> : tensor<f32>
// CHECK-NEXT:      %6 = stablehlo.broadcast_in_dim %5, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"j"}]>]>} : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:      %7 = sdy.reshard %6 <@mesh, [{"j"}]> : tensor<1xf32>
// CHECK-NEXT:      sdy.return %7 : tensor<1xf32>
// CHECK-NEXT:    } : (tensor<8xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %2 = sdy.reshard %1 <@mesh, [{"i", "j"}]> : tensor<4xf32>
// CHECK-NEXT:    return %2 : tensor<4xf32>
// CHECK-NEXT:  }
sdy.mesh @mesh = <["i"=4, "j"=2]>

func.func @free_axis_does_not_fit_the_result_dim(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"i", "j"}]> : tensor<8xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"i", ?}]>] out_shardings=[<@mesh, [{"i", ?}]>] manual_axes={"i"} (%arg1: tensor<2xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %4 = sdy.sharding_constraint %3 <@mesh, []> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %6 = sdy.sharding_constraint %5 <@mesh, [{?}]> : tensor<1xf32>
    sdy.return %6 : tensor<1xf32>
  } : (tensor<8xf32>) -> tensor<4xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"i", "j"}]> : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// The same with a result dim that has room for both axes: the out_shardings get "j" too.
// CHECK: sdy.mesh @mesh = <["i"=4, "j"=2]> {stablehlo.mesh = {axes = [{name = "i", size = 4 : i64}, {name = "j", size = 2 : i64}]}}
// CHECK-LABEL: func.func @free_axis_fits_the_result_dim(
// CHECK-SAME:      %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i", "j"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i", "j"}]>}) {
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@mesh, [{"i", "j"}]> : tensor<8xf32>
// CHECK-NEXT:    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"i", "j"}]>] out_shardings=[<@mesh, [{"i", "j"}]>] manual_axes={"i"} (%arg1: tensor<2xf32>) {
// CHECK-NEXT:      %3 = sdy.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %4 = stablehlo.reduce(%arg1 init: %3) applies stablehlo.add across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:      %5 = sdy.reshard %4 <@mesh, []> : tensor<f32>
// CHECK-NEXT:      %6 = stablehlo.broadcast_in_dim %5, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"j"}]>]>} : (tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:      %7 = sdy.reshard %6 <@mesh, [{"j"}]> : tensor<2xf32>
// CHECK-NEXT:      sdy.return %7 : tensor<2xf32>
// CHECK-NEXT:    } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %2 = sdy.reshard %1 <@mesh, [{"i", "j"}]> : tensor<8xf32>
// CHECK-NEXT:    return %2 : tensor<8xf32>
// CHECK-NEXT:  }
sdy.mesh @mesh = <["i"=4, "j"=2]>

func.func @free_axis_fits_the_result_dim(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"i", "j"}]> : tensor<8xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"i", ?}]>] out_shardings=[<@mesh, [{"i", ?}]>] manual_axes={"i"} (%arg1: tensor<2xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %4 = sdy.sharding_constraint %3 <@mesh, []> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %6 = sdy.sharding_constraint %5 <@mesh, [{?}]> : tensor<2xf32>
    sdy.return %6 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"i", "j"}]> : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

// Only the user of the result names "j": the body gets it, the out_shardings and the operand do not.
// CHECK: sdy.mesh @mesh = <["i"=4, "j"=2]> {stablehlo.mesh = {axes = [{name = "i", size = 4 : i64}, {name = "j", size = 2 : i64}]}}
// CHECK-LABEL: func.func @free_axis_from_the_result_user_only(
// CHECK-SAME:      %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}]>}) {
// CHECK-NEXT:    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i"}]>] out_shardings=[<@mesh, [{"i"}]>] manual_axes={"i"} (%arg1: tensor<2xf32>) {
// CHECK-NEXT:      %2 = sdy.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %3 = stablehlo.reduce(%arg1 init: %2) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:      %4 = stablehlo.broadcast_in_dim %3, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"j"}]>]>} : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:      sdy.return %4 : tensor<1xf32>
// CHECK-NEXT:    } : (tensor<8xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %1 = sdy.reshard %0 <@mesh, [{"i", "j"}]> : tensor<4xf32>
// CHECK-NEXT:    return %1 : tensor<4xf32>
// CHECK-NEXT:  }
sdy.mesh @mesh = <["i"=4, "j"=2]>

func.func @free_axis_from_the_result_user_only(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  %1 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"i", ?}]>] out_shardings=[<@mesh, [{"i", ?}]>] manual_axes={"i"} (%arg1: tensor<2xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<1xf32>
    sdy.return %5 : tensor<1xf32>
  } : (tensor<8xf32>) -> tensor<4xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"i", "j"}]> : tensor<4xf32>
  return %2 : tensor<4xf32>
}
