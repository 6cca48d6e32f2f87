// RUN: pysdy-opt %s -sdy-sink-func-data-flow-edges | filecheck %s

// Call results take their edge's sharding; func arguments whose edge has none become fully open.
// Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x6xf32> {
// CHECK-NEXT: %0:2 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {}]>, <@mesh, [{?}, {?}]>]>} : (tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>)
// CHECK-NEXT: %1 = stablehlo.add %0#0, %0#1 : tensor<8x6xf32>
// CHECK-NEXT: return %1 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @foo(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) -> (tensor<8x6xf32>, tensor<8x6xf32>) {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z", ?}, {?}]>]>} : tensor<8x6xf32>
// CHECK-NEXT: return %arg0, %0 : tensor<8x6xf32>, tensor<8x6xf32>
// CHECK-NEXT: }

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x6xf32> {
  %0:2 = call @foo(%arg0) : (tensor<8x6xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32>)
  %1 = sdy.func_data_flow_edge %0#0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {}]>]>} : tensor<8x6xf32>
  %2 = sdy.func_data_flow_edge %0#1 : tensor<8x6xf32>
  %3 = stablehlo.add %1, %2 : tensor<8x6xf32>
  return %3 : tensor<8x6xf32>
}
func.func private @foo(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"z"}]>}) -> (tensor<8x6xf32>, tensor<8x6xf32>) {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8x6xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z", ?}, {?}]>]>} : tensor<8x6xf32>
  return %0, %1 : tensor<8x6xf32>, tensor<8x6xf32>
}
