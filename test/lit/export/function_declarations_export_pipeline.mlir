// REQUIRES: !export_inlines_meshes
// RUN: pysdy-opt %s -sdy-export-pipeline | filecheck %s

// The export pipeline leaves a function declaration as it is and exports the other functions as usual; on this
// line the pipeline keeps the mesh symbols. (jaxlib's C++ pipeline crashes on a declaration; the expected output
// is its output for the module without it.)

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func @main
// CHECK-NEXT:    %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func private @declared(tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
func.func private @declared(tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
