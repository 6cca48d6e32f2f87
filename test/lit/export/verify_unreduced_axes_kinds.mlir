// RUN: pysdy-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(sdy-verify-unreduced-axes))" -verify-diagnostics
// REQUIRES: unreduced_reduction_kinds

// The kind checks in jaxlib's order: each result introducing axes has the expected kind, then every kept axis keeps
// the kind of every operand it overlaps, then the results agree on one kind; an ordinary op's results are compared
// first.

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @second_result_introduces_max(%arg0: tensor<8xf32>) -> (tensor<f32>, tensor<f32>) {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // expected-error@+1 {{'stablehlo.reduce' op cannot introduce 'max' unreduced axes. Expected 'sum'.}}
  %0:2 = stablehlo.reduce(%arg0 init: %zero), (%arg0 init: %zero) across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [], unreduced={"x"}>, <@mesh, [], unreduced=max{"y"}>]>} : (tensor<8xf32>, tensor<8xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<f32>, %d: tensor<f32>) {
    %s = stablehlo.add %a, %b : tensor<f32>
    %t = stablehlo.add %c, %d : tensor<f32>
    stablehlo.return %s, %t : tensor<f32>, tensor<f32>
  }
  return %0#0, %0#1 : tensor<f32>, tensor<f32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @second_operand_kind_checked(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>},
                                       %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=min{"x"}>}) -> tensor<8xf32> {
  // expected-error@+1 {{'stablehlo.add' op cannot change the reduction operator of kept unreduced axes from sum to min.}}
  %0 = stablehlo.add %arg1, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=min{"x"}>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @ordinary_op_results_compared_first(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  // expected-error@+1 {{'stablehlo.optimization_barrier' op results introduce unreduced axes with conflicting reduction ops}}
  %0:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced=min{"x"}>, <@mesh, [{}, {}], unreduced={"x"}>]>} %arg0, %arg0 : tensor<8x8xf32>, tensor<8x8xf32>
  return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @reduce_kept_kind_before_conflict(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) -> (tensor<8xf32>, tensor<8xf32>) {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // expected-error@+1 {{'stablehlo.reduce' op cannot change the reduction operator of kept unreduced axes from sum to min.}}
  %0:2 = stablehlo.reduce(%arg0 init: %zero), (%arg0 init: %zero) across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=min{"x"}>, <@mesh, [{}], unreduced={"x"}>]>} : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<f32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<f32>, %d: tensor<f32>) {
    %s = stablehlo.add %a, %b : tensor<f32>
    %t = stablehlo.add %c, %d : tensor<f32>
    stablehlo.return %s, %t : tensor<f32>, tensor<f32>
  }
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}
