// REQUIRES: export_inlines_meshes
// RUN: pysdy-opt %s -sdy-export-pipeline | filecheck %s

// The export pipeline leaves a function declaration's body-less signature alone but, as on every function, ends
// by inlining the meshes: the declaration's result sharding names the mesh inline too, and no mesh symbol is
// left. (jaxlib's C++ pipeline crashes on a declaration; the expected @main is its output for the module without
// the declaration, and the declaration's sharding is that mesh inlined as the pipeline inlines it in @main.)

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-NOT: sdy.mesh
// CHECK-LABEL: func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=2]>, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=2]>, [{"y"}]>}) {
// CHECK-NEXT:    %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=2]>, [{"x"}]>]>} : tensor<8xf32>
// CHECK-NEXT:    return %0 : tensor<8xf32>
// CHECK-NEXT:  }
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-NEXT:  func.func private @declared(tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=2]>, [{"x"}]>})
// CHECK-NOT: sdy.mesh
func.func private @declared(tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
