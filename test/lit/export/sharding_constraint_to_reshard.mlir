// RUN: pysdy-opt %s -sdy-sharding-constraint-to-reshard | filecheck %s

// Every sdy.sharding_constraint becomes an sdy.reshard.
// Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=4, "y"=2]>
// CHECK: sdy.mesh @mesh_rev = <["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
// CHECK-LABEL: func.func @constraints_nested_and_with_attrs(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {?}]> {foo = 1 : i64} : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.while(%iterArg = %0) : tensor<8x8xf32>
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT: stablehlo.return %c : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %2 = sdy.reshard %iterArg <@mesh, [{}, {"y"}], replicated={"x"}> : tensor<8x8xf32>
// CHECK-NEXT: stablehlo.return %2 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %1 : tensor<8x8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @mesh_rev = <["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>

// Constraints become reshards with the same sharding and attributes, also inside regions.
func.func @constraints_nested_and_with_attrs(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {?}]> {foo = 1 : i64} : tensor<8x8xf32>
  %1 = stablehlo.while(%iterArg = %0) : tensor<8x8xf32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %2 = sdy.sharding_constraint %iterArg <@mesh, [{}, {"y"}], replicated={"x"}> : tensor<8x8xf32>
    stablehlo.return %2 : tensor<8x8xf32>
  }
  return %1 : tensor<8x8xf32>
}
