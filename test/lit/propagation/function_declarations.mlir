// RUN: pysdy-opt %s -sdy-basic-propagate | filecheck %s
// RUN: pysdy-opt %s -sdy-aggressive-propagate | filecheck %s
// RUN: pysdy-opt %s -sdy-op-priority-propagate | filecheck %s

// A function declaration has no body to propagate through; the functions around it propagate as usual.

sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func private @declared(tensor<8xf32>) -> tensor<8xf32>
func.func private @declared(tensor<8xf32>) -> tensor<8xf32>

// CHECK-LABEL: func @main
// CHECK-SAME:    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>})
// CHECK-NEXT:    stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>}
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
