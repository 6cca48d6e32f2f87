// RUN: pysdy-opt %s -split-input-file -sdy-export-pipeline=enable-insert-explicit-collectives=true -verify-diagnostics

// sdy-reshard-to-collectives builds a collective permute from @mesh to @twin, two names for the same devices, which the
// verifier rejects. The export pipeline verifies right after the pass, as Shardy's does: on the lines that then inline
// the meshes, the names are gone by the end of the pipeline and the verifier would find nothing wrong.

sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @twin = <["x"=4, "y"=2]>

// expected-error@+2 {{'sdy.collective_permute' op result mesh name is different but same device ids as operand}}
// expected-note@+1 {{operand mesh: #sdy.mesh<["x"=4, "y"=2]>}}
func.func @main(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@twin, [{}, {"x"}]>}) {
  return %arg0 : tensor<16x16xf32>
}
