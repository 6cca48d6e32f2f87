// RUN: pysdy-opt %s -sdy-pad-for-divisibility -split-input-file -verify-diagnostics

// A function argument or result with a non-divisible sharding is the C++'s error (followed by its conversion's);
// any other non-divisible sharding is refused (pysdy does not implement the padding).

sdy.mesh @mesh = <["x"=2, "y"=2]>

// expected-error@+2 {{'func.func' op argument #1 has a non-divisible sharding. Shardy expects function IO to be divisible.}}
// expected-error@+1 {{failed to legalize operation 'func.func' that was explicitly marked illegal: "func.func"() <{arg_attrs = [{}, {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}], function_type = (tensor<8x8xf32>, tensor<7x8xf32>) -> tensor<7x8xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}], sym_name = "non_divisible_argument"}> ({...}) : () -> ()}}
func.func @non_divisible_argument(%arg0: tensor<8x8xf32>, %arg1: tensor<7x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<7x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  return %arg1 : tensor<7x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// expected-error@+2 {{'func.func' op result #0 has a non-divisible sharding. Shardy expects function IO to be divisible.}}
// expected-error@+1 {{failed to legalize operation 'func.func' that was explicitly marked illegal: "func.func"() <{function_type = (tensor<8x8xf32>) -> tensor<7x8xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}], sym_name = "non_divisible_result"}> ({...}) : () -> ()}}
func.func @non_divisible_result(%arg0: tensor<8x8xf32>) -> (tensor<7x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.slice %arg0 [0:7, 0:8] : (tensor<8x8xf32>) -> tensor<7x8xf32>
  return %0 : tensor<7x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @non_divisible_inside(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error@+1 {{sdy-pad-for-divisibility: pysdy does not implement padding a tensor whose sharding does not divide its shape}}
  %0 = stablehlo.slice %arg0 [0:7, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<7x8xf32>
  %1 = stablehlo.pad %0, %cst, low = [0, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<7x8xf32>, tensor<f32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
