// RUN: pysdy-opt %s -split-input-file -sdy-insert-explicit-reshards=enable-full-version=true | filecheck %s
// REQUIRES: explicit_reshards_keep_reshapes_split_alike

// Since jax 0.12, the full version leaves a reshape with overflow axes as it is when its operand and result shardings
// would split its row-major elements alike if every dimension divided evenly (each axis after as many blocks on both
// sides, the same replicated axes); sdy-resolve-permutation-factors reshards the ones whose padded blocks differ.

sdy.mesh @mesh = <["y"=3]>

// 8 elements over 3 devices are 3 a device, the 4 rows of 2 are 2 a device: the major dimension's "y" overflows
// its factor of 4.
// CHECK-LABEL: func.func @split_with_y_on_the_major_dim(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
// CHECK-NEXT: %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: return %0 : tensor<4x2xf32>
// CHECK-NEXT: }
func.func @split_with_y_on_the_major_dim(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

sdy.mesh @mesh = <["y"=3]>

// The same reshape the other way.
// CHECK-LABEL: func.func @merge_with_y_on_the_major_dim(%arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
// CHECK-NEXT: %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : (tensor<4x2xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %0 : tensor<8xf32>
// CHECK-NEXT: }
func.func @merge_with_y_on_the_major_dim(%arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : (tensor<4x2xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["y"=3]>

// An unsharded dimension after the reshaped ones.
// CHECK-LABEL: func.func @split_with_an_unsharded_dim_after(%arg0: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<4x2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}, {}]>}) {
// CHECK-NEXT: %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}, {}]>]>} : (tensor<8x2xf32>) -> tensor<4x2x2xf32>
// CHECK-NEXT: return %0 : tensor<4x2x2xf32>
// CHECK-NEXT: }
func.func @split_with_an_unsharded_dim_after(%arg0: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<4x2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}, {}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}, {}]>]>} : (tensor<8x2xf32>) -> tensor<4x2x2xf32>
  return %0 : tensor<4x2x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=3, "z"=3]>

// A size-1 dimension and two axes on the minor dimension ("x", "z" overflow the factor of 2).
// CHECK-LABEL: func.func @size_one_dim_and_two_axes_on_the_minor_dim(%arg0: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x", "z"}]>}) -> (tensor<1x4x2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}, {}, {"x", "z"}]>}) {
// CHECK-NEXT: %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}, {}, {"x", "z"}]>]>} : (tensor<8x2xf32>) -> tensor<1x4x2x2xf32>
// CHECK-NEXT: return %0 : tensor<1x4x2x2xf32>
// CHECK-NEXT: }
func.func @size_one_dim_and_two_axes_on_the_minor_dim(%arg0: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x", "z"}]>}) -> (tensor<1x4x2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}, {}, {"x", "z"}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}, {}, {"x", "z"}]>]>} : (tensor<8x2xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=6, "y"=3]>

// Sub-axes of "x" on two operand dimensions are "x" on the result's merged one.
// CHECK-LABEL: func.func @sub_axes_merged_across_dims(%arg0: tensor<2x3x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)3}, {"y"}]>}) -> (tensor<6x4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}) {
// CHECK-NEXT: %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}]>]>} : (tensor<2x3x8xf32>) -> tensor<6x4x2xf32>
// CHECK-NEXT: return %0 : tensor<6x4x2xf32>
// CHECK-NEXT: }
func.func @sub_axes_merged_across_dims(%arg0: tensor<2x3x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)3}, {"y"}]>}) -> (tensor<6x4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}, {}]>]>} : (tensor<2x3x8xf32>) -> tensor<6x4x2xf32>
  return %0 : tensor<6x4x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=3]>

// Padded blocks that happen to be equal (2 rows of 6 over 3 devices, 4 rows of 3).
// CHECK-LABEL: func.func @padded_blocks_already_equal(%arg0: tensor<2x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
// CHECK-NEXT: %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<2x6xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: return %0 : tensor<4x3xf32>
// CHECK-NEXT: }
func.func @padded_blocks_already_equal(%arg0: tensor<2x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<2x6xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

sdy.mesh @mesh = <["y"=3]>

// "y" splits the elements at different blocks on the two sides: resharded.
// CHECK-LABEL: func.func @y_on_different_blocks(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{}, {"y"}]> : tensor<4x2xf32>
// CHECK-NEXT: return %2 : tensor<4x2xf32>
// CHECK-NEXT: }
func.func @y_on_different_blocks(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=3]>

// Different replicated axes: resharded.
// CHECK-LABEL: func.func @different_replicated_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}], replicated={"x"}>}) -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{}], replicated={"x"}> : tensor<8xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@mesh, [{"y"}, {}]> : tensor<4x2xf32>
// CHECK-NEXT: return %2 : tensor<4x2xf32>
// CHECK-NEXT: }
func.func @different_replicated_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}], replicated={"x"}>}) -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
