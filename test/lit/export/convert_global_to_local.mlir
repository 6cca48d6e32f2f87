// RUN: pysdy-opt %s -split-input-file '--pass-pipeline=builtin.module(sdy-convert-global-to-local{enable-rgv3=false})' | filecheck %s

// A partitioned module at local (per-device) shapes: each value's shape divided along the axes its sharding splits it
// on, sdy collectives as StableHLO collectives over device groups, on channels after the module's largest. The same
// on every jax line (replica groups as device ids; functions not called main, which jax 0.12 records on the module).

// CHECK-LABEL: func.func @split_arguments_and_results(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
// CHECK-NEXT: %0 = stablehlo.exponential %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<4x4xf32>
// CHECK-NEXT: return %0 : tensor<4x4xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @split_arguments_and_results(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.exponential %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func.func @partial_sums(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
// CHECK-NEXT: %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<4x4xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK-NEXT: %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) : (tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK-NEXT: return %1 : tensor<4x32xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @partial_sums(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}

// -----

// CHECK-LABEL: func.func @gather_one_dimension(%arg0: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "x"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
// CHECK-NEXT: %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4, 1, 5, 2, 6, 3, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<8x2xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @gather_one_dimension(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "x"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.all_gather [{}, {"y", "x"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func.func @gather_two_dimensions(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
// CHECK-NEXT: %0 = stablehlo.reshape %arg0 : (tensor<4x4xf32>) -> tensor<1x4x4xf32>
// CHECK-NEXT: %1 = "stablehlo.all_gather"(%0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<1x4x4xf32>) -> tensor<8x4x4xf32>
// CHECK-NEXT: %2 = stablehlo.reshape %1 : (tensor<8x4x4xf32>) -> tensor<2x4x4x4xf32>
// CHECK-NEXT: %3 = stablehlo.transpose %2, dims = [0, 2, 1, 3] : (tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
// CHECK-NEXT: %4 = stablehlo.reshape %3 : (tensor<2x4x4x4xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %4 : tensor<8x16xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @gather_two_dimensions(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.all_gather [{"x"}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func.func @move_split(%arg0: tensor<2x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
// CHECK-NEXT: %0 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<2x16xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %0 : tensor<8x4xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @move_split(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func.func @reorder_axes(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}]>}) -> (tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) {
// CHECK-NEXT: %0 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[\[}}0, 0], [1, 2], [2, 4], [3, 6], [4, 1], [5, 3], [6, 5], [7, 7]]> : tensor<8x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %0 : tensor<2xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @reorder_axes(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"x", "y"}]> : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @split_constant(%arg0: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
// CHECK-NEXT: %cst = stablehlo.constant dense<2.000000e+00> : tensor<4x16xf32>
// CHECK-NEXT: %0 = stablehlo.multiply %arg0, %cst {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<4x16xf32>
// CHECK-NEXT: return %0 : tensor<4x16xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @split_constant(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<2.000000e+00> : tensor<8x16xf32>
  %1 = stablehlo.multiply %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func.func @channels_after_the_largest(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
// CHECK-NEXT: %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %1 = "stablehlo.all_gather"(%0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<4xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %1 : tensor<8xf32>
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @channels_after_the_largest(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.all_gather [{"x"}] %0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}
