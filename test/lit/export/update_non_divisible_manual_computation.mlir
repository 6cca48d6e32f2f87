// RUN: pysdy-opt %s -sdy-update-non-divisible-input-output-shardings | filecheck %s

// A manual computation's in/out shardings keep, per dimension, the manual axes and the largest prefix of the free
// axes that evenly divides what they leave (a nested computation's on its local shapes).
// Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
// CHECK-LABEL: func.func @manual_computations(%arg0: tensor<8x6xf32>, %arg1: tensor<12x10xf32>) -> (tensor<8x6xf32>, tensor<12x10xf32>) {
// CHECK-NEXT: %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {"y", ?}]>, <@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {"z", "y"}]>, <@mesh, [{"x"}, {"y", ?}]>] manual_axes={"x"} (%arg2: tensor<2x6xf32>, %arg3: tensor<3x10xf32>) {
// CHECK-NEXT: %1 = sdy.manual_computation(%arg2) in_shardings=[<@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{?}, {"y"}]>] manual_axes={"y"} (%arg4: tensor<2x3xf32>) {
// CHECK-NEXT: sdy.return %arg4 : tensor<2x3xf32>
// CHECK-NEXT: } : (tensor<2x6xf32>) -> tensor<2x6xf32>
// CHECK-NEXT: sdy.return %1, %arg3 : tensor<2x6xf32>, tensor<3x10xf32>
// CHECK-NEXT: } : (tensor<8x6xf32>, tensor<12x10xf32>) -> (tensor<8x6xf32>, tensor<12x10xf32>)
// CHECK-NEXT: return %0#0, %0#1 : tensor<8x6xf32>, tensor<12x10xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
func.func @manual_computations(%arg0: tensor<8x6xf32>, %arg1: tensor<12x10xf32>) -> (tensor<8x6xf32>, tensor<12x10xf32>) {
  %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x", "z"}, {"y", ?}]>, <@mesh, [{"x", "y"}, {"z"}]>] out_shardings=[<@mesh, [{"x"}, {"z", "y"}]>, <@mesh, [{"x"}, {"y", "z", ?}]>] manual_axes={"x"} (%arg2: tensor<2x6xf32>, %arg3: tensor<3x10xf32>) {
    %1 = sdy.manual_computation(%arg2) in_shardings=[<@mesh, [{"z"}, {"y"}]>] out_shardings=[<@mesh, [{"z", ?}, {"y"}]>] manual_axes={"y"} (%arg4: tensor<2x3xf32>) {
      sdy.return %arg4 : tensor<2x3xf32>
    } : (tensor<2x6xf32>) -> tensor<2x6xf32>
    sdy.return %1, %arg3 : tensor<2x6xf32>, tensor<3x10xf32>
  } : (tensor<8x6xf32>, tensor<12x10xf32>) -> (tensor<8x6xf32>, tensor<12x10xf32>)
  return %0#0, %0#1 : tensor<8x6xf32>, tensor<12x10xf32>
}
