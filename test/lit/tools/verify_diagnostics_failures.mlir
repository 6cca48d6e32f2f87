// RUN: not pysdy-opt %s -verify-diagnostics 2>&1 | filecheck %s

// An unmet expectation and an unexpected diagnostic both fail the run.

sdy.mesh @mesh = <["a"=2]>

// CHECK: verify_diagnostics_failures.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: unexpected error: {{.*}}unknown axis name: "z"
// CHECK: verify_diagnostics_failures.mlir:[[# @LINE + 2]]:4: error: expected error "this message never appears" was not produced
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}]>}) -> tensor<8xf32> {
// expected-error@+1 {{this message never appears}}
  return %arg0 : tensor<8xf32>
}
