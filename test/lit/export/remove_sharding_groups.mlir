// RUN: pysdy-opt %s -sdy-remove-sharding-groups | filecheck %s

// Sharding groups are erased, also inside regions.
// Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
// CHECK-LABEL: func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.while(%iterArg = %0) : tensor<8x8xf32>
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT: stablehlo.return %c : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: stablehlo.return %iterArg : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %1 : tensor<8x8xf32>
// CHECK-NEXT: }

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id=0 : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.while(%iterArg = %0) : tensor<8x8xf32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    sdy.sharding_group %iterArg group_id=1 : tensor<8x8xf32>
    stablehlo.return %iterArg : tensor<8x8xf32>
  }
  return %1 : tensor<8x8xf32>
}
