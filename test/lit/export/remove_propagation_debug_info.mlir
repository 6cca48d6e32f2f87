// RUN: pysdy-opt %s -sdy-remove-propagation-debug-info | filecheck %s

// Sharding origins and propagation edges are removed from ops and func arguments/results.
// Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x6xf32> {jax.result_info = "r"}) {
// CHECK-NEXT: %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
// CHECK-NEXT: return %0 : tensor<8x6xf32>
// CHECK-NEXT: }

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>, sdy.sharding_origins = {x = "self"}}) -> (tensor<8x6xf32> {sdy.sharding_origins = {x = "input: 0"}, jax.result_info = "r"}) {
  %0 = stablehlo.abs %arg0 {sdy.sharding_origins = [{x = "input: 0"}], sdy.result_sharding_origins = [], sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"x" = operand-0 -> [result-0]}]}]>} : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
