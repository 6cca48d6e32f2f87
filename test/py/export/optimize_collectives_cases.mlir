// Hand-written inputs of `sdy-optimize-collectives` (jax lines from 0.11): collective permutes that reorder the
// axes of one dimension, with and without all-to-alls after them, of dimensions the axes divide and do not.

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @permute_then_one_axis_all_to_all(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @permute_then_two_axes_all_to_all(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"y", "x"}: 0->1] %0 out_sharding=<@mesh, [{}, {"y", "x"}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @permute_alone(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @permute_with_two_users(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @permute_then_two_all_to_alls(%arg0: tensor<16x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}, {}]>}) -> tensor<16x8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}, {}]> : tensor<16x8x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{"y"}, {"x"}, {}]> : tensor<16x8x8xf32>
  %2 = sdy.all_to_all [{"y"}: 0->2] %1 out_sharding=<@mesh, [{}, {"x"}, {"y"}]> : tensor<16x8x8xf32>
  return %2 : tensor<16x8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @permute_between_meshes_of_one_dim(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"z"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"z"}: 0->1] %0 out_sharding=<@mesh, [{}, {"z"}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @permute_of_three_axes(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y", "z"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"z", "x", "y"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"y"}: 0->1] %0 out_sharding=<@mesh, [{"z", "x"}, {"y"}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=3, "y"=4]>
func.func @permute_of_a_dimension_smaller_than_its_axes(%arg0: tensor<2x2x16x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}, {}, {}]>}) -> tensor<2x2x16x2xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"x", "y"}, {}, {}, {}]> : tensor<2x2x16x2xf32>
  %1 = sdy.all_to_all [{"y"}: 0->2] %0 out_sharding=<@mesh, [{"x"}, {}, {"y"}, {}]> : tensor<2x2x16x2xf32>
  return %1 : tensor<2x2x16x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=3, "y"=2]>
func.func @permute_of_a_dimension_its_axes_do_not_divide(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"x", "y"}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_to_all [{"y"}: 0->1] %0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
