// REQUIRES: reshards_empty_unevenly_padded_dims
// RUN: pysdy-opt %s -sdy-reshard-to-collectives | filecheck %s

// A dimension that both shardings shard but pad to different sizes (6 split 2 ways is 6, split 4 ways is 8) is
// resharded only once it is empty, as jaxlib 0.12's Shardy does: it keeps its common prefix, its axes leave all
// together (one all-gather, or an all-to-all of all of them), nothing is sliced or moved into it before, no
// collective-permute runs meanwhile, and a third round of collectives may follow. Expected output: that line's C++
// pass on this input.

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
sdy.mesh @mesh_2_4 = <["x"=2, "y"=4]>
sdy.mesh @mesh_2_3 = <["x"=2, "z"=3]>
sdy.mesh @mesh_4_3_2_4 = <["x"=4, "y"=3, "z"=2, "w"=4]>

// CHECK-LABEL: func.func @shorter_on_common_prefix(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}]>}) -> tensor<6xf32> {
// CHECK-NEXT: %0 = sdy.all_gather [{"y", "x"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<6xf32>
// CHECK-NEXT: %1 = sdy.all_slice [{"y"}] %0 out_sharding=<@mesh, [{"y"}]> : tensor<6xf32>
// CHECK-NEXT: return %1 : tensor<6xf32>
// CHECK-NEXT: }
func.func @shorter_on_common_prefix(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}]>}) -> tensor<6xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"y"}]> : tensor<6xf32>
  return %0 : tensor<6xf32>
}

// CHECK-LABEL: func.func @longer_on_common_prefix(%arg0: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<6x6xf32> {
// CHECK-NEXT: %0 = sdy.all_gather [{"y"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<6x6xf32>
// CHECK-NEXT: %1 = sdy.all_slice [{"y", "x"}, {}] %0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<6x6xf32>
// CHECK-NEXT: return %1 : tensor<6x6xf32>
// CHECK-NEXT: }
func.func @longer_on_common_prefix(%arg0: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<6x6xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"y", "x"}, {}]> : tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}

// CHECK-LABEL: func.func @axis_bound_for_uneven_dim(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<6x8xf32> {
// CHECK-NEXT: %0 = sdy.all_gather [{"y"}, {"x"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<6x8xf32>
// CHECK-NEXT: %1 = sdy.all_slice [{"y", "x"}, {}] %0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<6x8xf32>
// CHECK-NEXT: return %1 : tensor<6x8xf32>
// CHECK-NEXT: }
func.func @axis_bound_for_uneven_dim(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<6x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"y", "x"}, {}]> : tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// CHECK-LABEL: func.func @beside_even_dims(%arg0: tensor<6x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {"z"}, {}]>}) -> tensor<6x8x8xf32> {
// CHECK-NEXT: %0 = sdy.all_to_all [{"z"}: 1->2] %arg0 out_sharding=<@mesh, [{"y", "x"}, {}, {"z"}]> : tensor<6x8x8xf32>
// CHECK-NEXT: %1 = sdy.all_gather [{"y", "x"}, {}, {}] %0 out_sharding=<@mesh, [{}, {}, {"z"}]> : tensor<6x8x8xf32>
// CHECK-NEXT: %2 = sdy.all_slice [{"y"}, {"x"}, {}] %1 out_sharding=<@mesh, [{"y"}, {"x"}, {"z"}]> : tensor<6x8x8xf32>
// CHECK-NEXT: return %2 : tensor<6x8x8xf32>
// CHECK-NEXT: }
func.func @beside_even_dims(%arg0: tensor<6x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {"z"}, {}]>}) -> tensor<6x8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {"x"}, {"z"}]> : tensor<6x8x8xf32>
  return %0 : tensor<6x8x8xf32>
}

// CHECK-LABEL: func.func @all_axes_bound_elsewhere(%arg0: tensor<8x8x2xf32> {sdy.sharding = #sdy.sharding<@mesh_2_4, [{"y"}, {}, {"x"}]>}) -> tensor<8x8x2xf32> {
// CHECK-NEXT: %0 = sdy.all_to_all [{"x"}: 2->1] %arg0 out_sharding=<@mesh_2_4, [{"y"}, {"x"}, {}]> : tensor<8x8x2xf32>
// CHECK-NEXT: %1 = sdy.all_to_all [{"y"}: 0->2] %0 out_sharding=<@mesh_2_4, [{}, {"x"}, {"y"}]> : tensor<8x8x2xf32>
// CHECK-NEXT: return %1 : tensor<8x8x2xf32>
// CHECK-NEXT: }
func.func @all_axes_bound_elsewhere(%arg0: tensor<8x8x2xf32> {sdy.sharding = #sdy.sharding<@mesh_2_4, [{"y"}, {}, {"x"}]>}) -> tensor<8x8x2xf32> {
  %0 = sdy.reshard %arg0 <@mesh_2_4, [{}, {"x"}, {"y"}]> : tensor<8x8x2xf32>
  return %0 : tensor<8x8x2xf32>
}

// CHECK-LABEL: func.func @replaced_axis_bound_elsewhere(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh_2_3, [{"z"}, {}]>}) -> tensor<16x16xf32> {
// CHECK-NEXT: %0 = sdy.all_to_all [{"z"}: 0->1] %arg0 out_sharding=<@mesh_2_3, [{}, {"z"}]> : tensor<16x16xf32>
// CHECK-NEXT: %1 = sdy.all_slice [{"x"}, {}] %0 out_sharding=<@mesh_2_3, [{"x"}, {"z"}]> : tensor<16x16xf32>
// CHECK-NEXT: return %1 : tensor<16x16xf32>
// CHECK-NEXT: }
func.func @replaced_axis_bound_elsewhere(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh_2_3, [{"z"}, {}]>}) -> tensor<16x16xf32> {
  %0 = sdy.reshard %arg0 <@mesh_2_3, [{"x"}, {"z"}]> : tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @third_round(%arg0: tensor<12x2xf32> {sdy.sharding = #sdy.sharding<@mesh_4_3_2_4, [{"y", "w"}, {"z", "x"}]>}) -> tensor<12x2xf32> {
// CHECK-NEXT: %0 = sdy.all_gather [{}, {"z", "x"}] %arg0 out_sharding=<@mesh_4_3_2_4, [{"y", "w"}, {}]> : tensor<12x2xf32>
// CHECK-NEXT: %1 = sdy.all_slice [{}, {"z"}] %0 out_sharding=<@mesh_4_3_2_4, [{"y", "w"}, {"z"}]> : tensor<12x2xf32>
// CHECK-NEXT: %2 = sdy.collective_permute %1 out_sharding=<@mesh_4_3_2_4, [{"w", "y"}, {"z"}]> : tensor<12x2xf32>
// CHECK-NEXT: %3 = sdy.all_to_all [{"y"}: 0->1] %2 out_sharding=<@mesh_4_3_2_4, [{"w"}, {"z", "y"}]> : tensor<12x2xf32>
// CHECK-NEXT: %4 = sdy.collective_permute %3 out_sharding=<@mesh_4_3_2_4, [{"w"}, {"y", "z"}]> : tensor<12x2xf32>
// CHECK-NEXT: return %4 : tensor<12x2xf32>
// CHECK-NEXT: }
func.func @third_round(%arg0: tensor<12x2xf32> {sdy.sharding = #sdy.sharding<@mesh_4_3_2_4, [{"y", "w"}, {"z", "x"}]>}) -> tensor<12x2xf32> {
  %0 = sdy.reshard %arg0 <@mesh_4_3_2_4, [{"w"}, {"y", "z"}]> : tensor<12x2xf32>
  return %0 : tensor<12x2xf32>
}
