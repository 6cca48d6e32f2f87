// RUN: pysdy-opt %s -split-input-file -sdy-insert-explicit-reshards -verify-diagnostics

// Unreduced axes that Shardy's C++ checks reject, aborting the process; pysdy refuses.

// Without the full version, an op whose result is unreduced needs its operands to shard each reduction factor
// alike: the all-reduce is along those axes.

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @unreduced_result_of_disagreeing_contraction(%arg0: tensor<8x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<24x24xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}]>}) -> tensor<8x24xf32> {
  // expected-error@+1 {{the result has unreduced axes while the operands are sharded differently along a reduction factor}}
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x24xf32>, tensor<24x24xf32>) -> tensor<8x24xf32>
  return %0 : tensor<8x24xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// The results of an op must all have the same unreduced axes (the all-reduce of its operands follows the first).
func.func @results_with_different_unreduced_axes(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // expected-error@+1 {{the results of the operation have different unreduced axes}}
  %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %a2: tensor<f32>, %a3: tensor<f32>):
    %r = stablehlo.compare GT, %a0, %a1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x"}>, <@mesh, [{}]>]>} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// An op without results has nothing to keep an operand's unreduced axes on.
func.func @unreduced_operand_of_op_without_results(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) {
  // expected-error@+1 {{some operands have unreduced axes but the operation has no results}}
  stablehlo.custom_call @sink(%arg0) {has_side_effect = true} : (tensor<8xf32>) -> ()
  return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @reordered = <["x"=2, "y"=2], device_ids=[1, 0, 3, 2]>

// A value becomes unreduced only on its own mesh (device order included).
func.func @unreduced_result_on_another_mesh(%arg0: tensor<12xf32>) -> (tensor<12xf32> {sdy.sharding = #sdy.sharding<@reordered, [{}], unreduced={"x"}>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<12xf32>
  // expected-error@+1 {{the sharding with unreduced axes has another mesh than its input}}
  return %0 : tensor<12xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @reordered = <["x"=2, "y"=2], device_ids=[1, 0, 3, 2]>

// An unreduced value is all-reduced only for a user on its own mesh.
func.func @unreduced_operand_of_user_on_another_mesh(%arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) -> tensor<12xf32> {
  // expected-error@+1 {{the operand has unreduced axes but its user's sharding has another mesh}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@reordered, [{}]>]>} : tensor<12xf32>
  return %0 : tensor<12xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A reshard can make some axes unreduced only if it keeps the unreduced axes its input has.
func.func @reshard_trading_unreduced_axes(%arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) -> tensor<12xf32> {
  // expected-error@+1 {{the input and the output both have unreduced axes the other does not have}}
  %0 = sdy.reshard %arg0 <@mesh, [{}], unreduced={"y"}> : tensor<12xf32>
  return %0 : tensor<12xf32>
}
