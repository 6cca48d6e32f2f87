// RUN: pysdy-opt %s -sdy-pad-for-divisibility -split-input-file | filecheck %s

// A module whose shardings all divide their shapes is left as it is (on every jax line).

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func @divisible
func.func @divisible(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) {
  // CHECK-NEXT: %[[N:.*]] = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x", "y"}]>]>} : tensor<8x8xf32>
  // CHECK-NEXT: return %[[N]] : tensor<8x8xf32>
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x", "y"}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func private @non_divisible_declaration
// CHECK-SAME:    (tensor<7x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<7x8xf32>
func.func private @non_divisible_declaration(%arg0: tensor<7x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<7x8xf32>
