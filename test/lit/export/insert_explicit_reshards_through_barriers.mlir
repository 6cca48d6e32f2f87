// RUN: pysdy-opt %s -split-input-file -sdy-insert-explicit-reshards | filecheck %s

// An operand behind a propagation barrier has the sharding of the value the barrier starts from: here the dot's
// result is sharded like its lhs ("y" on the rows, as the barrier's input) and resharded back to the sharding it
// had, trading a reduce-scatter of the operand for one of the smaller result.

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @dot_operand_behind_barrier(
// CHECK-NEXT: %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<4x32xf32>
// CHECK-NEXT: %1 = stablehlo.dot %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{"x"}, {}]> : tensor<4x8xf32>
// CHECK-NEXT: return %2 : tensor<4x8xf32>
func.func @dot_operand_behind_barrier(%arg0: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>},
                                      %arg1: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<4x32xf32>
  %1 = stablehlo.dot %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
