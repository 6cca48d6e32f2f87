// RUN: pysdy-opt %s -xla-sdy-stablehlo-export-pipeline -verify-diagnostics

// pysdy holds device lists explicitly: a sharding over more devices than it handles (2^20, far more
// than any real mesh) is an error on its op, not an exhausted memory. (Found by the CLI fuzzer.)

sdy.mesh @mesh = <["x"=2, "y"=2147483648]>

// expected-error@+1 {{cannot export sharding #sdy.sharding<@mesh, [{"x"}]> to an HloSharding: 4294967296 devices are more than pysdy handles (1048576)}}
func.func @export(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
