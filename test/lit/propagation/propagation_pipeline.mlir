// RUN: pysdy-opt %s -sdy-propagation-pipeline -split-input-file | filecheck %s

// A two-layer MLP: the batch axis flows from the input, the model axis from the weights.
// CHECK: sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) {
// CHECK-NEXT:    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT:    %1 = stablehlo.tanh %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>} : tensor<8x32xf32>
// CHECK-NEXT:    %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    return %2 : tensor<8x16xf32>
// CHECK-NEXT:    }
sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.tanh %0 : tensor<8x32xf32>
  %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

// A sharding constraint on an intermediate value becomes a reshard.
// CHECK: sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) {
// CHECK-NEXT:    %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"model"}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    %1 = sdy.reshard %0 <@mesh, [{}, {"model"}]> : tensor<8x16xf32>
// CHECK-NEXT:    %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"model"}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %2 : tensor<8x16xf32>
// CHECK-NEXT:    }
sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"model"}]> : tensor<8x16xf32>
  %2 = stablehlo.negate %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

// A loop carries the input's sharding through its body to the result.
// CHECK: sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) {
// CHECK-NEXT:    %0 = sdy.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %1:2 = stablehlo.while(%iterArg = %0, %iterArg_0 = %arg0) : tensor<i32>, tensor<8x16xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{"data"}, {"model"}]>]>}
// CHECK-NEXT:    cond {
// CHECK-NEXT:    %2 = sdy.constant dense<4> : tensor<i32>
// CHECK-NEXT:    %3 = stablehlo.compare LT, %iterArg, %2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:    stablehlo.return %3 : tensor<i1>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    %2 = sdy.constant dense<1> : tensor<i32>
// CHECK-NEXT:    %3 = stablehlo.add %iterArg, %2 : tensor<i32>
// CHECK-NEXT:    %4 = stablehlo.multiply %iterArg_0, %iterArg_0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    stablehlo.return %3, %4 : tensor<i32>, tensor<8x16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %1#1 : tensor<8x16xf32>
// CHECK-NEXT:    }
sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> tensor<8x16xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c, %x = %arg0) : tensor<i32>, tensor<8x16xf32>
    cond {
      %lim = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %lim : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.add %i, %one : tensor<i32>
      %y = stablehlo.multiply %x, %x : tensor<8x16xf32>
      stablehlo.return %n, %y : tensor<i32>, tensor<8x16xf32>
    }
  return %0#1 : tensor<8x16xf32>
}

// -----

// A function called twice: its body is propagated at each call site, then the calls are restored.
// CHECK: sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) {
// CHECK-NEXT:    %0 = call @square(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %1 = call @square_0(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"model"}]>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT:    }
// CHECK-LABEL: func.func private @square(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) {
// CHECK-NEXT:    %0 = stablehlo.multiply %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %0 : tensor<8x16xf32>
// CHECK-NEXT:    }
// CHECK-LABEL: func.func private @square_0(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) {
// CHECK-NEXT:    %0 = stablehlo.multiply %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"model"}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %0 : tensor<8x16xf32>
// CHECK-NEXT:    }
sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = call @square(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = call @square(%arg1) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
func.func private @square(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A shard_map body: shardings outside take the manual axis back.
// CHECK: sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) {
// CHECK-NEXT:    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"data"}, {}]>] out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data"} (%arg1: tensor<4x16xf32>) {
// CHECK-NEXT:    %2 = stablehlo.exponential %arg1 : tensor<4x16xf32>
// CHECK-NEXT:    sdy.return %2 : tensor<4x16xf32>
// CHECK-NEXT:    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %1 : tensor<8x16xf32>
// CHECK-NEXT:    }
sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"data"}, {}]>] out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data"} (%arg1: tensor<4x16xf32>) {
    %1 = stablehlo.exponential %arg1 : tensor<4x16xf32>
    sdy.return %1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.add %0, %0 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

// User priorities: the p0 sharding of the first input wins over the p1 sharding of the second.
// CHECK: sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) {
// CHECK-NEXT:    %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %0 : tensor<8x16xf32>
// CHECK-NEXT:    }
sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}p0, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}p1, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// An input sharding that does not divide its dimension is shrunk to one that does.
// CHECK: sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %arg0: tensor<6x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model":(1)2}, {}]>}) -> (tensor<6x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
// CHECK-NEXT:    %0 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"model"}, {}]>]>} : tensor<6x16xf32>
// CHECK-NEXT:    return %0 : tensor<6x16xf32>
// CHECK-NEXT:    }
sdy.mesh @mesh = <["data"=2, "model"=4]>
func.func @main(%arg0: tensor<6x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) -> tensor<6x16xf32> {
  %0 = stablehlo.sine %arg0 : tensor<6x16xf32>
  return %0 : tensor<6x16xf32>
}

