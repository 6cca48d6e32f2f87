// RUN: pysdy-opt %s -sdy-basic-propagate | filecheck %s

// An unused sdy.reshard has no effect: propagation's rewrite driver erases it, as it erases any unused pure op.

sdy.mesh @mesh = <["y"=2]>

// CHECK-LABEL: func.func @main(%arg0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT: return %arg0 : tensor<16xf32>
func.func @main(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"y"}]> : tensor<16xf32>
  return %arg0 : tensor<16xf32>
}
