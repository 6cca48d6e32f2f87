// RUN: not pysdy-opt %s -split-input-file -no-implicit-module -sdy-basic-propagate 2>/dev/null | filecheck %s
// RUN: not pysdy-opt %s -split-input-file -no-implicit-module -sdy-basic-propagate 2>&1 >/dev/null | filecheck %s --check-prefix=ERRORS

// With -no-implicit-module each input must be one builtin.module (pysdy's pipelines run on one);
// anything else is an error on that input, the others still run.

// CHECK-LABEL: module {
// CHECK-NEXT:    sdy.mesh @mesh = <["a"=2]>
// CHECK-NEXT:    func.func @in_a_module(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) {
// CHECK-NEXT:      %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<8xf32>
// CHECK-NEXT:      return %0 : tensor<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NOT:   func.func
module {
  sdy.mesh @mesh = <["a"=2]>
  func.func @in_a_module(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.abs %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// ERRORS: no_implicit_module.mlir:[[# @LINE + 1]]:1: error: -no-implicit-module: the top-level op must be a 'builtin.module', found 'func.func'
func.func @alone() {
  return
}

// -----

// ERRORS: no_implicit_module.mlir:0:0: error: source must contain a single top-level operation, found: 2
sdy.mesh @mesh = <["a"=2]>
func.func @beside_a_mesh() {
  return
}
