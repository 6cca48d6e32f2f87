// RUN: pysdy-opt %s -split-input-file -verify-diagnostics

// Every designator form of expected-* comments, against the sdy verifier.

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error@+1 {{unknown axis name: "c"}}
func.func @next_line(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @previous_line(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "a"}]>}) -> tensor<8xf32> {
// expected-error@-1 {{duplicate axis ref: "a"}}
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error@below {{sharding doesn't match tensor rank: 2 != 1}}
func.func @below(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @above(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "a", "b"}]>}) -> tensor<8xf32> {
  // expected-error@above {{duplicate axis ref: "b"}}
  return %arg0 : tensor<8xf32>
}

// -----

func.func @same_line(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg9 : tensor<8xf32> // expected-error {{use of undeclared SSA value name}}
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// A space before the designator is allowed, as in MLIR.
// expected-error @+1 {{unknown axis name: "d"}}
func.func @space_before_designator(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
