// RUN: pysdy-opt %s -split-input-file -sdy-insert-explicit-reshards=enable-full-version=true -verify-diagnostics

// A reshape whose redistributed axes must be written back through a factor that the sharding projection left out
// (a dimension's factors past the one right after a factor with overflow axes). Shardy's C++ reads past the end of
// its factor map there and crashes; pysdy refuses.

sdy.mesh @mesh = <["y"=3, "z"=4, "w"=4]>

// The operand's "y" overflows the first of its factors 2, 2, 4, so its projection has no sharding for the third.
// The result is more sharded: its "w" fills the first two factors, and writing the operand back reads the third.
func.func @reshape_writes_back_a_left_out_factor(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<2x2x4xf32> {
  // expected-error@+1 {{sdy-insert-explicit-reshards: cannot redistribute the reshape's axes: factor 2 is read back but has no factor sharding}}
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"w"}, {}]>]>} : (tensor<16xf32>) -> tensor<2x2x4xf32>
  return %0 : tensor<2x2x4xf32>
}

// -----

sdy.mesh @mesh = <["y"=3, "z"=4, "w"=4]>

// Here the third factor would also get "z".
func.func @reshape_gives_axes_to_a_left_out_factor(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<2x2x4xf32> {
  // expected-error@+1 {{sdy-insert-explicit-reshards: cannot redistribute the reshape's axes: factor 2 is read back but has no factor sharding}}
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"w"}, {"z"}]>]>} : (tensor<16xf32>) -> tensor<2x2x4xf32>
  return %0 : tensor<2x2x4xf32>
}
