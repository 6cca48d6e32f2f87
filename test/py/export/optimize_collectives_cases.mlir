// Hand-written inputs of `sdy-optimize-collectives` (jax lines from 0.11): collective permutes that reorder the
// axes of one dimension, with and without all-to-alls after them, of dimensions the axes divide and do not, and
// what the greedy driver does to other ops.

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

func.func @inline_mesh(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=4]>, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<mesh<["x"=2, "y"=4]>, [{"y", "x"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<mesh<["x"=2, "y"=4]>, [{"y"}, {"x"}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=3, "y"=2]>
func.func @permute_of_a_dimension_its_axes_do_not_divide(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"x", "y"}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_to_all [{"y"}: 0->1] %0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @replicated_and_unreduced_axes_kept(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}], replicated={"z"}>}) -> tensor<8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}], replicated={"z"}> : tensor<8x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{"y"}, {"x"}], replicated={"z"}> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @unreduced_axes_kept(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}], unreduced={"z"}>}) -> tensor<8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}], unreduced={"z"}> : tensor<8x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{"y"}, {"x"}], unreduced={"z"}> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @open_dims_and_priority(%arg0: tensor<8x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y", ?}, {?}, {"z"}p1]>}) -> tensor<8x8x4xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x", ?}, {?}, {"z"}p1]> : tensor<8x8x4xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{"y", ?}, {"x", ?}, {"z"}p1]> : tensor<8x8x4xf32>
  return %1 : tensor<8x8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @zero_sized_dim(%arg0: tensor<0x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<0x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<0x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<0x8xf32>
  return %1 : tensor<0x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @sub_axes(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y", "x":(2)2}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"x", "y"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"y"}: 0->1] %0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @whole_axis_moved_over_sub_axes(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"x":(2)2, "y", "x":(1)2}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"x":(1)2}: 0->1] %0 out_sharding=<@mesh, [{"x":(2)2, "y"}, {"x":(1)2}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @in_manual_computation(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"y"}, {"x"}]>] manual_axes={"z"} (%arg1: tensor<16x8xf32>) {
    %1 = sdy.collective_permute %arg1 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
    %2 = sdy.all_to_all [{"x"}: 0->1] %1 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
    sdy.return %2 : tensor<16x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @dead_ops_erased_and_constants_merged(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<16x8xf32>
  %u = stablehlo.add %arg0, %arg0 : tensor<16x8xf32>
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<16x8xf32>
  %c1 = stablehlo.constant dense<1.0> : tensor<16x8xf32>
  %1 = stablehlo.multiply %arg0, %c1 : tensor<16x8xf32>
  %2 = stablehlo.add %1, %c : tensor<16x8xf32>
  return %2 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @chain_ends_at_all_to_all_with_two_users(%arg0: tensor<16x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}, {}]>}) -> (tensor<16x8x8xf32>, tensor<16x8x8xf32>) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y", "x"}, {}, {}]> : tensor<16x8x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{"y"}, {"x"}, {}]> : tensor<16x8x8xf32>
  %2 = sdy.all_to_all [{"y"}: 0->2] %1 out_sharding=<@mesh, [{}, {"x"}, {"y"}]> : tensor<16x8x8xf32>
  %3 = stablehlo.negate %1 : tensor<16x8x8xf32>
  return %2, %3 : tensor<16x8x8xf32>, tensor<16x8x8xf32>
}
