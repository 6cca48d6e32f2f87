// RUN: pysdy-opt %s -split-input-file -xla-sdy-stablehlo-export-pipeline -verify-diagnostics

// Errors and warnings of the export. What the reductions over unreduced axes refuse is in
// export_manual_reduction_collectives_*errors.mlir.

// A transpose whose result is unreduced along an axis its input is sharded on: a warning, and the input keeps its sharding.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @unreduced_transpose_of_sharded_input(%arg0: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
  // expected-warning@+1 {{stablehlo.transpose has unreduced axes, but input is sharded along one of those axes, this can lead to undefined behavior}}
  %1 = stablehlo.transpose %0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

// An op sharded along an axis that is also manual where it is.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @sharded_and_manual(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{cannot export sharding #sdy.sharding<@mesh, [{"x"}, {}]> to an HloSharding: an axis is used more than once in the sharding}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A function argument sharded along a sub-axis of one of its manual axes.
sdy.mesh @mesh = <["x"=2, "y"=4]>
// expected-error@+1 {{cannot export sharding #sdy.sharding<@mesh, [{"y":(1)2}, {}]> to an HloSharding: axis "y" overlaps another axis of the sharding}}
func.func @sub_axis_of_manual_axis(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(1)2}, {}]>, xla.sdy.manual_axes = #sdy<manual_axes{"y"}>}) -> tensor<8x16xf32> {
  return %arg0 : tensor<8x16xf32>
}

// -----

// A manual axis the mesh does not have.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @manual_axis_not_in_mesh(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{cannot export sharding #sdy.sharding<@mesh, [{}, {}]> to an HloSharding: manual axis "z" is not an axis of the mesh}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"z"}>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
