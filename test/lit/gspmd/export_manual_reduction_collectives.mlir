// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-export-manual-reduction-collectives | filecheck %s

// Expected output: XLA's own export of these inputs (test/py/gspmd/test_export_lit_inputs.py compares the whole
// export pipeline's HLO). Max and min reductions are in export_manual_reduction_collectives_kinds.mlir, dimensions the
// shardings do not divide in ..._padded.mlir, what pysdy refuses in the ..._errors.mlir files.

// A transpose's unreduced axes go onto its input, which keeps its own dim shardings.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @transpose(%arg0: tensor<8x16xf32>) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}], unreduced={"x"}>]>} : tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.transpose %0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}], unreduced={"x"}>]>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: return %1 : tensor<16x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @transpose(%arg0: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x16xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}], unreduced={"x"}>]>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

// An input without a sharding gets a fully closed one with the unreduced axes.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @reshape_of_unsharded(%arg0: tensor<8x16xf32>) -> tensor<128xf32> {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>} : tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"y"}>]>} : (tensor<8x16xf32>) -> tensor<128xf32>
// CHECK-NEXT: return %1 : tensor<128xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @reshape_of_unsharded(%arg0: tensor<8x16xf32>) -> tensor<128xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"y"}>]>} : (tensor<8x16xf32>) -> tensor<128xf32>
  return %1 : tensor<128xf32>
}

// -----

// Through a chain of data-preserving ops, last to first.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @chain(%arg0: tensor<8x16xf32>) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : tensor<8x16xf32>
// CHECK-NEXT: %1 = mhlo.copy %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : tensor<8x16xf32>
// CHECK-NEXT: %2 = stablehlo.transpose %1, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: return %2 : tensor<16x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @chain(%arg0: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = mhlo.copy %0 : tensor<8x16xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  return %2 : tensor<16x8xf32>
}

// -----

// A function argument is not an op result: it keeps its sharding.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @argument_input(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = stablehlo.transpose %arg0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: return %0 : tensor<16x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @argument_input(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<16x8xf32> {
  %0 = stablehlo.transpose %arg0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// An all-reduce of an operand with unreduced axes: a fully manual computation of a stablehlo.all_reduce over the
// devices of each group along "x", channel 1.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @all_reduce(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y"}, {}], unreduced={"x"}>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<2x8xf32>) {
// CHECK-NEXT: %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: sdy.return %1 : tensor<2x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_reduce(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Over two axes that are not adjacent in the mesh, leaving another unreduced axis; integer elements.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK-NEXT: func.func @all_reduce_two_axes(%arg0: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y", "z"}>}) -> (tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}], unreduced={"x", "y", "z"}>] out_shardings=[<@mesh, [{}, {}], unreduced={"y"}>] manual_axes={"x", "y", "z"} (%arg1: tensor<8x8xi32>) {
// CHECK-NEXT: %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 4, 5], [2, 3, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
// CHECK-NEXT: %2 = stablehlo.add %arg2, %arg3 : tensor<i32>
// CHECK-NEXT: stablehlo.return %2 : tensor<i32>
// CHECK-NEXT: }) : (tensor<8x8xi32>) -> tensor<8x8xi32>
// CHECK-NEXT: sdy.return %1 : tensor<8x8xi32>
// CHECK-NEXT: } : (tensor<8x8xi32>) -> tensor<8x8xi32>
// CHECK-NEXT: return %0 : tensor<8x8xi32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @all_reduce_two_axes(%arg0: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y", "z"}>}) -> (tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) {
  %0 = sdy.all_reduce {"x", "z"} %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"y"}> : tensor<8x8xi32>
  return %0 : tensor<8x8xi32>
}

// -----

// Over a sub-axis: the mesh axis is cut into sub-axes for the replica groups.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @all_reduce_sub_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(2)2}, {}], unreduced={"x", "y":(1)2}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(2)2}, {}]>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y":(2)2}, {}], unreduced={"x", "y":(1)2}>] out_shardings=[<@mesh, [{"y":(2)2}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<4x8xf32>) {
// CHECK-NEXT: %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: sdy.return %1 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_reduce_sub_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(2)2}, {}], unreduced={"x", "y":(1)2}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(2)2}, {}]>}) {
  %0 = sdy.all_reduce {"x", "y":(1)2} %arg0 out_sharding=<@mesh, [{"y":(2)2}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// On a mesh with device ids: the replica groups hold them.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[0, 2, 4, 6, 1, 3, 5, 7]>
// CHECK-NEXT: func.func @all_reduce_device_ids(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}], unreduced={"y"}>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<4x8xf32>) {
// CHECK-NEXT: %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: sdy.return %1 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[0, 2, 4, 6, 1, 3, 5, 7]>
func.func @all_reduce_device_ids(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// An all-reduce of an operand without unreduced axes is left as it is.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @all_reduce_of_reduced_operand(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
// CHECK-NEXT: %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_reduce_of_reduced_operand(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A reduce-scatter over two dimensions: one stablehlo.reduce_scatter per dimension, in dimension order, channels 1
// and 2.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @reduce_scatter_two_dims(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}], unreduced={"x", "y"}>] out_shardings=[<@mesh, [{"y"}, {"x"}]>] manual_axes={"x", "y"} (%arg1: tensor<8x8xf32>) {
// CHECK-NEXT: %1 = "stablehlo.reduce_scatter"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %3 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %3 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %2 = "stablehlo.reduce_scatter"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %3 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %3 : tensor<f32>
// CHECK-NEXT: }) : (tensor<2x8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: sdy.return %2 : tensor<2x4xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @reduce_scatter_two_dims(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %0 = sdy.reduce_scatter [{"y"}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A reduce-scatter over two axes of one dimension, after an axis the operand is already sharded on there.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK-NEXT: func.func @reduce_scatter_two_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x", "z"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "z", "x"}, {}]>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y"}, {}], unreduced={"x", "z"}>] out_shardings=[<@mesh, [{"y", "z", "x"}, {}]>] manual_axes={"x", "y", "z"} (%arg1: tensor<4x8xf32>) {
// CHECK-NEXT: %1 = "stablehlo.reduce_scatter"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4, 1, 5], [2, 6, 3, 7]]> : tensor<2x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) : (tensor<4x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT: sdy.return %1 : tensor<1x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @reduce_scatter_two_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x", "z"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "z", "x"}, {}]>}) {
  %0 = sdy.reduce_scatter [{"z", "x"}, {}] %arg0 out_sharding=<@mesh, [{"y", "z", "x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// The operand of a reduce-scatter enters the manual computation unreduced along the scattered axes only ("z" stays
// unreduced in the result).
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK-NEXT: func.func @reduce_scatter_other_unreduced_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}], unreduced={"y", "z"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}], unreduced={"z"}>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {"x"}], unreduced={"y"}>] out_shardings=[<@mesh, [{"y"}, {"x"}], unreduced={"z"}>] manual_axes={"x", "y", "z"} (%arg1: tensor<8x4xf32>) {
// CHECK-NEXT: %1 = "stablehlo.reduce_scatter"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 2], [1, 3], [4, 6], [5, 7]]> : tensor<4x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %2 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: sdy.return %1 : tensor<4x4xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @reduce_scatter_other_unreduced_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}], unreduced={"y", "z"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}], unreduced={"z"}>}) {
  %0 = sdy.reduce_scatter [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}], unreduced={"z"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Sharded to unreduced: each device puts its part into zeros of the result's local shape, at its coordinate along
// "y" (from the partition id) times the part's size.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @sharded_to_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}], unreduced={"y"}>] manual_axes={"x", "y"} (%arg1: tensor<1x8xf32>) {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %1 = stablehlo.broadcast %cst, sizes = [4, 8] : (tensor<f32>) -> tensor<4x8xf32>
// CHECK-NEXT: %2 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %3 = stablehlo.convert %2 : (tensor<ui32>) -> tensor<i32>
// CHECK-NEXT: %c = stablehlo.constant dense<4> : tensor<i32>
// CHECK-NEXT: %4 = stablehlo.remainder %3, %c : tensor<i32>
// CHECK-NEXT: %5 = stablehlo.divide %3, %c : tensor<i32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %6 = stablehlo.remainder %5, %c_0 : tensor<i32>
// CHECK-NEXT: %7 = stablehlo.divide %5, %c_0 : tensor<i32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %c_2 = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT: %8 = stablehlo.multiply %4, %c_2 : tensor<i32>
// CHECK-NEXT: %9 = stablehlo.dynamic_update_slice %1, %arg1, %8, %c_1 : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
// CHECK-NEXT: sdy.return %9 : tensor<4x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @sharded_to_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) {
  %0 = sdy.sharded_to_unreduced [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Two axes of one dimension (their coordinates combined major to minor) and one of another.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK-NEXT: func.func @sharded_to_unreduced_three_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", "x"}, {"y"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y", "z"}>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"z", "x"}, {"y"}]>] out_shardings=[<@mesh, [{}, {}], unreduced={"x", "y", "z"}>] manual_axes={"x", "y", "z"} (%arg1: tensor<2x4xf32>) {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %1 = stablehlo.broadcast %cst, sizes = [8, 8] : (tensor<f32>) -> tensor<8x8xf32>
// CHECK-NEXT: %2 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %3 = stablehlo.convert %2 : (tensor<ui32>) -> tensor<i32>
// CHECK-NEXT: %c = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %4 = stablehlo.remainder %3, %c : tensor<i32>
// CHECK-NEXT: %5 = stablehlo.divide %3, %c : tensor<i32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %6 = stablehlo.remainder %5, %c_0 : tensor<i32>
// CHECK-NEXT: %7 = stablehlo.divide %5, %c_0 : tensor<i32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %8 = stablehlo.remainder %7, %c_1 : tensor<i32>
// CHECK-NEXT: %9 = stablehlo.divide %7, %c_1 : tensor<i32>
// CHECK-NEXT: %c_2 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %10 = stablehlo.multiply %4, %c : tensor<i32>
// CHECK-NEXT: %11 = stablehlo.add %10, %8 : tensor<i32>
// CHECK-NEXT: %c_3 = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %12 = stablehlo.multiply %11, %c_3 : tensor<i32>
// CHECK-NEXT: %c_4 = stablehlo.constant dense<4> : tensor<i32>
// CHECK-NEXT: %13 = stablehlo.multiply %6, %c_4 : tensor<i32>
// CHECK-NEXT: %14 = stablehlo.dynamic_update_slice %1, %arg1, %12, %13 : (tensor<8x8xf32>, tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
// CHECK-NEXT: sdy.return %14 : tensor<8x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @sharded_to_unreduced_three_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", "x"}, {"y"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y", "z"}>}) {
  %0 = sdy.sharded_to_unreduced [{"z", "x"}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"x", "y", "z"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Replicated to unreduced: the devices at coordinate 0 along "x" keep their part, the others take zeros.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @replicated_to_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{"y"}, {}], unreduced={"x"}>] manual_axes={"x", "y"} (%arg1: tensor<2x8xf32>) {
// CHECK-NEXT: %1 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %2 = stablehlo.convert %1 : (tensor<ui32>) -> tensor<i32>
// CHECK-NEXT: %c = stablehlo.constant dense<4> : tensor<i32>
// CHECK-NEXT: %3 = stablehlo.remainder %2, %c : tensor<i32>
// CHECK-NEXT: %4 = stablehlo.divide %2, %c : tensor<i32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %5 = stablehlo.remainder %4, %c_0 : tensor<i32>
// CHECK-NEXT: %6 = stablehlo.divide %4, %c_0 : tensor<i32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %7 = stablehlo.compare EQ, %5, %c_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %8 = stablehlo.broadcast %cst, sizes = [2, 8] : (tensor<f32>) -> tensor<2x8xf32>
// CHECK-NEXT: %9 = stablehlo.select %7, %arg1, %8 : tensor<i1>, tensor<2x8xf32>
// CHECK-NEXT: sdy.return %9 : tensor<2x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @replicated_to_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>}) {
  %0 = sdy.replicated_to_unreduced {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}], unreduced={"x"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Along two axes: both coordinates must be 0.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK-NEXT: func.func @replicated_to_unreduced_two_axes(%arg0: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}], unreduced={"x", "z"}>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{}, {"y"}], unreduced={"x", "z"}>] manual_axes={"x", "y", "z"} (%arg1: tensor<8x4xi32>) {
// CHECK-NEXT: %1 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %2 = stablehlo.convert %1 : (tensor<ui32>) -> tensor<i32>
// CHECK-NEXT: %c = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %3 = stablehlo.remainder %2, %c : tensor<i32>
// CHECK-NEXT: %4 = stablehlo.divide %2, %c : tensor<i32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %5 = stablehlo.remainder %4, %c_0 : tensor<i32>
// CHECK-NEXT: %6 = stablehlo.divide %4, %c_0 : tensor<i32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %7 = stablehlo.remainder %6, %c_1 : tensor<i32>
// CHECK-NEXT: %8 = stablehlo.divide %6, %c_1 : tensor<i32>
// CHECK-NEXT: %c_2 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %9 = stablehlo.compare EQ, %7, %c_2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: %10 = stablehlo.compare EQ, %3, %c_2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: %11 = stablehlo.and %9, %10 : tensor<i1>
// CHECK-NEXT: %c_3 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %12 = stablehlo.broadcast %c_3, sizes = [8, 4] : (tensor<i32>) -> tensor<8x4xi32>
// CHECK-NEXT: %13 = stablehlo.select %11, %arg1, %12 : tensor<i1>, tensor<8x4xi32>
// CHECK-NEXT: sdy.return %13 : tensor<8x4xi32>
// CHECK-NEXT: } : (tensor<8x8xi32>) -> tensor<8x8xi32>
// CHECK-NEXT: return %0 : tensor<8x8xi32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @replicated_to_unreduced_two_axes(%arg0: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}], unreduced={"x", "z"}>}) {
  %0 = sdy.replicated_to_unreduced {"x", "z"} %arg0 out_sharding=<@mesh, [{}, {"y"}], unreduced={"x", "z"}> : tensor<8x8xi32>
  return %0 : tensor<8x8xi32>
}

// -----

// On a mesh with reversed device ids the coordinates read from the partition id are mirrored, which still keeps one
// device of each group along "x".
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
// CHECK-NEXT: func.func @replicated_to_unreduced_reversed_device_ids(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{"y"}, {}], unreduced={"x"}>] manual_axes={"x", "y"} (%arg1: tensor<2x8xf32>) {
// CHECK-NEXT: %1 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %2 = stablehlo.convert %1 : (tensor<ui32>) -> tensor<i32>
// CHECK-NEXT: %c = stablehlo.constant dense<4> : tensor<i32>
// CHECK-NEXT: %3 = stablehlo.remainder %2, %c : tensor<i32>
// CHECK-NEXT: %4 = stablehlo.divide %2, %c : tensor<i32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %5 = stablehlo.remainder %4, %c_0 : tensor<i32>
// CHECK-NEXT: %6 = stablehlo.divide %4, %c_0 : tensor<i32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %7 = stablehlo.compare EQ, %5, %c_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %8 = stablehlo.broadcast %cst, sizes = [2, 8] : (tensor<f32>) -> tensor<2x8xf32>
// CHECK-NEXT: %9 = stablehlo.select %7, %arg1, %8 : tensor<i1>, tensor<2x8xf32>
// CHECK-NEXT: sdy.return %9 : tensor<2x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
func.func @replicated_to_unreduced_reversed_device_ids(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}], unreduced={"x"}>}) {
  %0 = sdy.replicated_to_unreduced {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}], unreduced={"x"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A constant with unreduced axes becomes replicated, then unreduced by a replicated-to-unreduced move its users take.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @unreduced_constant() -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
// CHECK-NEXT: %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{"y"}, {}], unreduced={"x"}>] manual_axes={"x", "y"} (%arg0: tensor<2x8xf32>) {
// CHECK-NEXT: %3 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
// CHECK-NEXT: %c = stablehlo.constant dense<4> : tensor<i32>
// CHECK-NEXT: %5 = stablehlo.remainder %4, %c : tensor<i32>
// CHECK-NEXT: %6 = stablehlo.divide %4, %c : tensor<i32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %7 = stablehlo.remainder %6, %c_0 : tensor<i32>
// CHECK-NEXT: %8 = stablehlo.divide %6, %c_0 : tensor<i32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %9 = stablehlo.compare EQ, %7, %c_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %10 = stablehlo.broadcast %cst, sizes = [2, 8] : (tensor<f32>) -> tensor<2x8xf32>
// CHECK-NEXT: %11 = stablehlo.select %9, %arg0, %10 : tensor<i1>, tensor<2x8xf32>
// CHECK-NEXT: sdy.return %11 : tensor<2x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"y"}, {}], unreduced={"x"}>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"x", "y"} (%arg0: tensor<2x8xf32>) {
// CHECK-NEXT: %3 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK-NEXT: %4 = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK-NEXT: stablehlo.return %4 : tensor<f32>
// CHECK-NEXT: }) : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: sdy.return %3 : tensor<2x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @unreduced_constant() -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}], unreduced={"x"}>]>} dense<1.0> : tensor<8x8xf32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

// Channels continue after the greatest one of the module (5), in walk order: the reduce-scatter gets 6, the
// all-reduce 7.
// CHECK-LABEL: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @channels_after_existing_ones(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
// CHECK-NEXT: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y", "x"}, {}]>] out_shardings=[<@mesh, [{"y"}, {}], unreduced={"x"}>] manual_axes={"x", "y"} (%arg1: tensor<1x8xf32>) {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %5 = stablehlo.broadcast %cst, sizes = [2, 8] : (tensor<f32>) -> tensor<2x8xf32>
// CHECK-NEXT: %6 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %7 = stablehlo.convert %6 : (tensor<ui32>) -> tensor<i32>
// CHECK-NEXT: %c = stablehlo.constant dense<4> : tensor<i32>
// CHECK-NEXT: %8 = stablehlo.remainder %7, %c : tensor<i32>
// CHECK-NEXT: %9 = stablehlo.divide %7, %c : tensor<i32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT: %10 = stablehlo.remainder %9, %c_0 : tensor<i32>
// CHECK-NEXT: %11 = stablehlo.divide %9, %c_0 : tensor<i32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %c_2 = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT: %12 = stablehlo.multiply %10, %c_2 : tensor<i32>
// CHECK-NEXT: %13 = stablehlo.dynamic_update_slice %5, %arg1, %12, %c_1 : (tensor<2x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x8xf32>
// CHECK-NEXT: sdy.return %13 : tensor<2x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"y"}, {}], unreduced={"x"}>] out_shardings=[<@mesh, [{"y"}, {"x"}]>] manual_axes={"x", "y"} (%arg1: tensor<2x8xf32>) {
// CHECK-NEXT: %5 = "stablehlo.reduce_scatter"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %6 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %6 : tensor<f32>
// CHECK-NEXT: }) : (tensor<2x8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: sdy.return %5 : tensor<2x4xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<8x8xf32>) {
// CHECK-NEXT: %5 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %6 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %6 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: sdy.return %5 : tensor<8x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"y"}, {}], unreduced={"x"}>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<2x8xf32>) {
// CHECK-NEXT: %5 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %6 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %6 : tensor<f32>
// CHECK-NEXT: }) : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: sdy.return %5 : tensor<2x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %4 = stablehlo.add %3, %1 : tensor<8x8xf32>
// CHECK-NEXT: return %4, %2 : tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @channels_after_existing_ones(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.sharded_to_unreduced [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {}], unreduced={"x"}> : tensor<8x8xf32>
  %1 = sdy.reduce_scatter [{}, {"x"}] %0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x8xf32>
  %2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<8x8xf32>) {
    %3 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %4 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %4 : tensor<f32>
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    sdy.return %3 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %5 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  %6 = stablehlo.add %5, %1 : tensor<8x8xf32>
  return %6, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}
