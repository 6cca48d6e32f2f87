// RUN: pysdy-opt %s -sdy-insert-explicit-reshards=enable-full-version=true | filecheck %s

// A reshape to a scalar whose rule gives its operand's dimension factors that the sharding overflows: the scalar
// has no factor to take axes, so the operand alone is redistributed ("x" split across the factors it divides).

sdy.mesh @mesh = <["x"=4, "y"=2]>

// CHECK-LABEL: func.func @reshape_to_scalar_with_overflow(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}, {}, {"x":(2)2}]> : tensor<1x1x1xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %0
// CHECK-NEXT: return %1 : tensor<f32>
func.func @reshape_to_scalar_with_overflow(%arg0: tensor<1x1x1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>})
    -> (tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k, l])->([]) {i=3, j=2, k=1, l=1}>} : (tensor<1x1x1xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
