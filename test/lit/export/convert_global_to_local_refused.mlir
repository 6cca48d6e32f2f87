// RUN: pysdy-opt %s -split-input-file -sdy-convert-global-to-local -verify-diagnostics

// pysdy refuses, before changing anything, at an op it does not convert yet (jaxlib's C++ converts it or fails on it),
// and at an op whose per-device program would compute wrong values (where jaxlib's C++ converts it blindly).

sdy.mesh @mesh = <["x"=2]>

func.func @manual_operand_split_otherwise(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  // expected-error@+1 {{sdy-convert-global-to-local: pysdy does not implement converting 'sdy.manual_computation' passing a value split otherwise than its in/out sharding says}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<4xf32>) {
    sdy.return %a : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @scatter_of_whole_values(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  // expected-error@+1 {{sdy-convert-global-to-local: 'sdy.reduce_scatter' over axes its operand is not partial along (no unreduced axes, no split reduction before it): on local parts it would reduce whole values again and compute wrong values}}
  %0 = sdy.reduce_scatter [{"x"}] %arg0 out_sharding=<@mesh, [{"x"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @slice_of_part_of_a_split_dim(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  // expected-error@+1 {{sdy-convert-global-to-local: pysdy does not implement converting 'stablehlo.slice' taking part of split dimension 0 (the C++ fails: it needs communication)}}
  %0 = stablehlo.slice %arg0 [0:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @slice_with_a_stride_across_parts(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  // expected-error@+1 {{sdy-convert-global-to-local: 'stablehlo.slice' with stride 3 along dimension 0, split into parts of 8: on local parts it would compute wrong values}}
  %0 = stablehlo.slice %arg0 [0:16:3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<16xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @reverse_of_a_split_dim(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  // expected-error@+1 {{sdy-convert-global-to-local: 'stablehlo.reverse' with a dimension split along which it moves elements between devices' parts: on local parts it would compute wrong values}}
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @sum_of_partial_maxima(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = sdy.constant dense<0xFF800000> : tensor<f32>
  // expected-error@+1 {{sdy-convert-global-to-local: 'stablehlo.reduce' reducing a dimension split on {"y"} without one sdy.all_reduce or sdy.reduce_scatter (max) over those axes after it to finish its partial results: on local parts it would compute wrong values}}
  %1 = stablehlo.reduce(%arg0 init: %0) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{"x"}]> : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @sum_of_whole_values(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  // expected-error@+1 {{sdy-convert-global-to-local: 'sdy.all_reduce' over axes its operand is not partial along (no unreduced axes, no split reduction before it): on local parts it would reduce whole values again and compute wrong values}}
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

func.func @parts_that_do_not_belong_together(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  // expected-error@+1 {{sdy-convert-global-to-local: 'stablehlo.add' with its operands and results split differently along one dimension: on local parts it would compute wrong values}}
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// jax 0.12's C++ all-reduces nothing here (an sdy.all_reduce reads the partial sums), so the negate reads them too.
func.func @partial_sums_read_finished_and_not(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error@+1 {{sdy-convert-global-to-local: 'stablehlo.reduce' reducing a dimension split on {"y"} without one sdy.all_reduce or sdy.reduce_scatter (sum) over those axes after it to finish its partial results: on local parts it would compute wrong values}}
  %1 = stablehlo.reduce(%arg0 init: %0) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{"x"}]> : tensor<8xf32>
  %3 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %2, %3 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A host callback that logs (JAX's io_callback) runs once in the global program; each device would run it in the
// per-device one. (Found running a training step on the pysdy route: the log held every device's call.)
sdy.mesh @mesh = <["x"=2]>

func.func @logging_callback(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  // expected-error@+1 {{sdy-convert-global-to-local: pysdy does not implement converting 'stablehlo.custom_call' with side effects outside a manual computation (every device would run them, not one)}}
  stablehlo.custom_call @log(%arg0) {has_side_effect = true} : (tensor<8xf32>) -> ()
  return %arg0 : tensor<8xf32>
}
