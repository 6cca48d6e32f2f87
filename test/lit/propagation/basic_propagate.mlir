// RUN: pysdy-opt %s -sdy-basic-propagate -split-input-file | filecheck %s

// sdy-basic-propagate: expected output is what jaxlib's C++ pass prints.

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @elementwise_forward(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %1 : tensor<8x16xf32>
// CHECK-NEXT:  }
// Forward through an elementwise chain, then back to the function result.
func.func @elementwise_forward(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
  %1 = stablehlo.negate %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @backward_from_result(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) {
// CHECK-NEXT:    %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %0 : tensor<8x16xf32>
// CHECK-NEXT:  }
// A function result sharding flows backwards to the arguments.
func.func @backward_from_result(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) {
  %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @dot_general(
// CHECK-SAME:      %arg0: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}, {"b"}]>}, %arg1: tensor<4x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}, {?}]>}) -> (tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}, {?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}, {?}]>]>} : (tensor<4x8x16xf32>, tensor<4x16x32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT:    return %0 : tensor<4x8x32xf32>
// CHECK-NEXT:  }
// Batch and non-contracting dims of a dot_general; the contracting dim is not propagated to the result.
func.func @dot_general(%arg0: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}, {"b"}]>}, %arg1: tensor<4x16x32xf32>) -> tensor<4x8x32xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x16xf32>, tensor<4x16x32xf32>) -> tensor<4x8x32xf32>
  return %0 : tensor<4x8x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @reshape_split(
// CHECK-SAME:      %arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "a"}]>}) -> (tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b":(1)2, ?}, {"b":(2)2, "a", ?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b":(1)2, ?}, {"b":(2)2, "a", ?}]>]>} : (tensor<16xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    return %0 : tensor<2x8xf32>
// CHECK-NEXT:  }
// Splitting a sharded dimension creates sub-axes.
func.func @reshape_split(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "a"}]>}) -> tensor<2x8xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<16xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @conflict(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}) -> tensor<8x16xf32> {
// CHECK-NEXT:    %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
// CHECK-NEXT:    return %0 : tensor<8x16xf32>
// CHECK-NEXT:  }
// Conflicting operand shardings: only the compatible major axes propagate.
func.func @conflict(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @closed_and_replicated(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {?}], replicated={"b"}>}) -> tensor<8x16xf32> {
// CHECK-NEXT:    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8x16xf32>
// CHECK-NEXT:    return %0 : tensor<8x16xf32>
// CHECK-NEXT:  }
// Closed dimensions and explicitly replicated axes are not sharded further.
func.func @closed_and_replicated(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {?}], replicated={"b"}>}) -> tensor<8x16xf32> {
  %0 = stablehlo.multiply %arg0, %arg1 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @dead_op_erased(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %0 : tensor<8x16xf32>
// CHECK-NEXT:  }
// Unused side-effect-free ops are erased, as MLIR's rewrite driver does.
func.func @dead_op_erased(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<8x16xf32>
  %1 = stablehlo.abs %arg0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @two_results(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
// CHECK-NEXT:    %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 1 : i64, is_stable = false}> ({
// CHECK-NEXT:    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<i32>, %arg5: tensor<i32>):
// CHECK-NEXT:    %1 = stablehlo.compare GT, %arg2, %arg3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:    stablehlo.return %1 : tensor<i1>
// CHECK-NEXT:    }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>, <@mesh, [{"a", ?}, {?}]>]>} : (tensor<8x16xf32>, tensor<8x16xi32>) -> (tensor<8x16xf32>, tensor<8x16xi32>)
// CHECK-NEXT:    return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xi32>
// CHECK-NEXT:  }
// Ops with several results: the results without a sharding become fully open.
func.func @two_results(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xi32>) -> (tensor<8x16xf32>, tensor<8x16xi32>) {
  %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 1 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<8x16xf32>, tensor<8x16xi32>) -> (tensor<8x16xf32>, tensor<8x16xi32>)
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xi32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @sharding_constraint(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"b"}]> : tensor<8x16xf32>
// CHECK-NEXT:    %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %2 : tensor<8x16xf32>
// CHECK-NEXT:  }
// A sharding constraint propagates like an elementwise op holding its sharding.
func.func @sharding_constraint(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"b"}]> : tensor<8x16xf32>
  %2 = stablehlo.negate %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @propagation_barrier(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) {
// CHECK-NEXT:    %0 = sdy.propagation_barrier %arg0 allowed_direction=FORWARD {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %1 : tensor<8x16xf32>
// CHECK-NEXT:  }
// A propagation barrier lets shardings through in its allowed direction only.
func.func @propagation_barrier(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<8x16xf32>
  %1 = stablehlo.abs %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
