// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-export-manual-reduction-collectives -verify-diagnostics

// What XLA's export aborts or crashes on, or exports to wrong values, pysdy refuses at the op.

// Sharded to unreduced on a mesh with device ids: XLA's export aborts (it reads coordinates from the partition id).
sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
func.func @sharded_to_unreduced_device_ids(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@+1 {{pysdy cannot export 'sdy.sharded_to_unreduced' on a mesh with device ids: XLA's export aborts on it}}
  %0 = sdy.sharded_to_unreduced [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Sharded to unreduced over a sub-axis: XLA's export aborts.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @sharded_to_unreduced_sub_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@+1 {{pysdy cannot export 'sdy.sharded_to_unreduced' of sub-axis "y":(2)2: XLA's export aborts on sub-axes there}}
  %0 = sdy.sharded_to_unreduced [{"y":(2)2}, {}] %arg0 out_sharding=<@mesh, [{"x", "y":(1)2}, {}], unreduced={"y":(2)2}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Sharded to unreduced of axes of different sizes from one dimension: XLA's export computes a device's offset along
// the dimension as its coordinate along "x" times the size of "x" (not of "y") plus its coordinate along "y", which
// places two parts at one offset and none at others.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @sharded_to_unreduced_axes_of_different_sizes(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  // expected-error@+1 {{pysdy cannot export 'sdy.sharded_to_unreduced' of axes of different sizes from one dimension: XLA's export multiplies the offset so far by the size of the axis before the next one instead of the next one's, which misplaces the parts (wrong values)}}
  %0 = sdy.sharded_to_unreduced [{"x", "y"}, {}] %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"x", "y"}> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// Replicated to unreduced over a sub-axis: XLA's export aborts.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @replicated_to_unreduced_sub_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@+1 {{pysdy cannot export 'sdy.replicated_to_unreduced' of sub-axis "y":(1)2: XLA's export aborts on sub-axes there}}
  %0 = sdy.replicated_to_unreduced {"y":(1)2} %arg0 out_sharding=<@mesh, [{"x"}, {}], unreduced={"y":(1)2}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Replicated to unreduced on a mesh whose device ids put partitions 0 and 1 in one group along "x", 4 and 5 in another:
// XLA's export reads their coordinates along "x" from the partition id (0 for 0 and 1, 1 for 4 and 5), keeps the value
// on both devices of the first group and on neither of the second: their sums are twice the value and zero.
sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[0, 2, 4, 6, 1, 3, 5, 7]>
func.func @replicated_to_unreduced_device_ids(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@+1 {{pysdy cannot export 'sdy.replicated_to_unreduced' on this mesh's device ids: XLA's export reads each device's coordinates from its partition id as if the mesh had none, which keeps the value on no device, or on several, of some group (wrong values)}}
  %0 = sdy.replicated_to_unreduced {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}], unreduced={"x"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Complex zeros: XLA's export crashes making them.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @replicated_to_unreduced_complex(%arg0: tensor<8x8xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xcomplex<f32>> {
  // expected-error@+1 {{pysdy cannot export 'sdy.replicated_to_unreduced' of complex<f32> elements: XLA's export crashes making their zero}}
  %0 = sdy.replicated_to_unreduced {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}], unreduced={"x"}> : tensor<8x8xcomplex<f32>>
  return %0 : tensor<8x8xcomplex<f32>>
}

// -----

// A complex constant with unreduced axes: the replicated-to-unreduced move it becomes is refused at the constant.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @unreduced_complex_constant() -> tensor<8x8xcomplex<f32>> {
  // expected-error@+1 {{pysdy cannot export 'sdy.replicated_to_unreduced' of complex<f32> elements: XLA's export crashes making their zero}}
  %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} dense<(1.0, 2.0)> : tensor<8x8xcomplex<f32>>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xcomplex<f32>>
  return %1 : tensor<8x8xcomplex<f32>>
}

// -----

// f8E8M0FNU has no zero (XLA's export makes its least value instead).
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @sharded_to_unreduced_without_zero(%arg0: tensor<8x8xf8E8M0FNU> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<8x8xf8E8M0FNU> {
  // expected-error@+1 {{pysdy cannot export 'sdy.sharded_to_unreduced' of f8E8M0FNU elements, which have no zero}}
  %0 = sdy.sharded_to_unreduced [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf8E8M0FNU>
  return %0 : tensor<8x8xf8E8M0FNU>
}

// -----

// An all-reduce inside a manual computation becomes a fully manual computation nested in it, which binds the outer
// manual axis again: the verifier rejects it, as it rejects XLA's.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @inside_a_manual_computation(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  // expected-note@+1 {{parent bounding this axis as manual}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"y"} (%arg1: tensor<2x8xf32>) {
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : tensor<2x8xf32>
    // expected-error@+1 {{'sdy.manual_computation' op operates on axis "y" which is already bound by a parent sdy.manual_computation op}}
    %2 = sdy.all_reduce {"x"} %1 out_sharding=<@mesh, [{}, {}]> : tensor<2x8xf32>
    sdy.return %2 : tensor<2x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
