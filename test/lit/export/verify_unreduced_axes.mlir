// RUN: pysdy-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(sdy-verify-unreduced-axes))" -verify-diagnostics
// RUN: pysdy-opt %s -split-input-file -sdy-export-pipeline -verify-diagnostics
// REQUIRES: verify_unreduced_axes

// From jax 0.11, sdy-verify-unreduced-axes reports an op that drops unreduced axes without a reshard or a
// collective, and the export pipeline runs it before inserting explicit reshards.

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @add_drops_unreduced_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x8xf32> {
  // expected-error@+1 {{'stablehlo.add' op dropped unreduced axis 'y' without a blessed operation (e.g., sdy.reshard). This is an invalid transition from unreduced to reduced.}}
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @add_keeps_unreduced_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}], unreduced={"y"}>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
