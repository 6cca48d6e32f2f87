// RUN: pysdy-opt %s -xla-sdy-stablehlo-import-pipeline -verify-diagnostics

// pysdy holds device lists explicitly: a sharding over more devices than it handles (2^20, far more
// than any real mesh) is an error on its op, not an exhausted memory. (Found by the CLI fuzzer.)

// expected-error@+1 {{argument 0 of @import: cannot parse `mhlo.sharding` "{devices=[2147483648]<=[2147483648]}": 2147483648 devices are more than pysdy handles (1048576)}}
func.func @import(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2147483648]<=[2147483648]}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
