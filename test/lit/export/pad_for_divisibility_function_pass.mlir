// RUN: not pysdy-opt %s --pass-pipeline='builtin.module(func.func(sdy-pad-for-divisibility))' 2>&1 | filecheck %s
// REQUIRES: !pad_for_divisibility_on_module

// Before jax 0.11, sdy-pad-for-divisibility is a function pass: it nests in func.func and runs on each function on
// its own, so every function with a non-divisible argument or result gets its error.

sdy.mesh @mesh = <["x"=2]>

// CHECK: error: 'func.func' op argument #0 has a non-divisible sharding. Shardy expects function IO to be divisible.
// CHECK-NEXT: func.func @non_divisible_argument(
// CHECK: error: failed to legalize operation 'func.func' that was explicitly marked illegal: "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}], function_type = (tensor<7xf32>) -> tensor<7xf32>, sym_name = "non_divisible_argument"}> ({...}) : () -> ()
func.func @non_divisible_argument(%arg0: tensor<7xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<7xf32> {
  return %arg0 : tensor<7xf32>
}

// CHECK: error: 'func.func' op result #0 has a non-divisible sharding. Shardy expects function IO to be divisible.
// CHECK-NEXT: func.func @non_divisible_result(
// CHECK: error: failed to legalize operation 'func.func' that was explicitly marked illegal: "func.func"() <{function_type = (tensor<5xf32>) -> tensor<5xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}], sym_name = "non_divisible_result"}> ({...}) : () -> ()
func.func @non_divisible_result(%arg0: tensor<5xf32>) -> (tensor<5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  return %arg0 : tensor<5xf32>
}
