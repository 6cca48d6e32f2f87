// RUN: pysdy-opt %s -split-input-file -xla-sdy-import-shardings -verify-diagnostics

// The second argument's devices flip each pair of the first's: no mesh order makes both transposed iotas.
// expected-error@+1 {{no mesh names every sharding of the module: no mesh order names every value (in the iota device order: argument 1 of @flipped_pairs cannot be named: its devices are in no transposed order of the mesh's digits; in the device order led by argument 1 of @flipped_pairs: argument 0 of @flipped_pairs cannot be named: its devices are in no transposed order of the mesh's digits)}}
func.func @flipped_pairs(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[4]0,1,2,3}"}, %arg1: tensor<8xf32> {mhlo.sharding = "{devices=[4]1,0,3,2}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// The error goes on the op whose sharding no mesh names.
func.func @op_sharding(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}) -> tensor<8xf32> {
  // expected-error@+1 {{no mesh names every sharding of the module: the result of stablehlo.negate cannot be named: it tiles 2 devices, argument 0 of @op_sharding tiles 4}}
  %0 = stablehlo.negate %arg0 {mhlo.sharding = "{devices=[2]<=[2]}"} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @unparsable(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{the result of stablehlo.negate: cannot parse `mhlo.sharding` "{devices=[4}"}}
  %0 = stablehlo.negate %arg0 {mhlo.sharding = "{devices=[4}"} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @tuple_size_mismatch(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{the result of stablehlo.negate: a tuple sharding of 2 elements for 1 results}}
  %0 = stablehlo.negate %arg0 {mhlo.sharding = "{{replicated}, {replicated}}"} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// expected-error@+1 {{argument 0 of @tuple_on_argument has a tuple sharding of 2 elements, but sdy shards only single tensors}}
func.func @tuple_on_argument(%arg0: tuple<tensor<8xf32>, tensor<8xf32>> {mhlo.sharding = "{{replicated}, {replicated}}"}) -> tuple<tensor<8xf32>, tensor<8xf32>> {
  return %arg0 : tuple<tensor<8xf32>, tensor<8xf32>>
}
