// RUN: pysdy-opt %s -sdy-reshard-to-collectives | filecheck %s
// RUN: pysdy-opt %s -sdy-reshard-to-collectives=keep-redundant-reshards=true | filecheck %s --check-prefix=KEEP

// Every sdy.reshard becomes the all-slices, collective-permutes, all-to-alls and all-gathers
// from its input sharding to its output sharding; a reshard that needs none is dropped
// (kept with keep-redundant-reshards). Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
// CHECK: sdy.mesh @mesh_48 = <["x"=4, "y"=8]>
// CHECK: sdy.mesh @mesh_rev = <["x"=2, "y"=2, "z"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
// CHECK-LABEL: func.func @gather_and_slice(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = sdy.all_slice [{}, {"z"}] %arg0 out_sharding=<@mesh, [{"x", "y"}, {"z"}]> : tensor<16x8xf32>
// CHECK-NEXT: %1 = sdy.all_gather [{"y"}, {}] %0 out_sharding=<@mesh, [{"x"}, {"z"}]> : tensor<16x8xf32>
// CHECK-NEXT: return %1 : tensor<16x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @sub_axes(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh_48, [{"y"}, {"x":(1)2}]>}) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = sdy.all_slice [{}, {"x":(2)2}] %arg0 out_sharding=<@mesh_48, [{"y"}, {"x"}]> : tensor<16x8xf32>
// CHECK-NEXT: %1 = sdy.all_gather [{"y":(4)2}, {}] %0 out_sharding=<@mesh_48, [{"y":(1)4}, {"x"}]> : tensor<16x8xf32>
// CHECK-NEXT: return %1 : tensor<16x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @move_axes_between_dims(%arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}, {}]>}) -> tensor<8x8x8xf32> {
// CHECK-NEXT: %0 = sdy.all_to_all [{"x"}: 1->2] %arg0 out_sharding=<@mesh, [{"y"}, {}, {"x"}]> : tensor<8x8x8xf32>
// CHECK-NEXT: %1 = sdy.all_to_all [{"y"}: 0->2] %0 out_sharding=<@mesh, [{}, {}, {"x", "y"}]> : tensor<8x8x8xf32>
// CHECK-NEXT: return %1 : tensor<8x8x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @swap_and_reorder(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {"z"}]>}) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"z", "x"}, {"y"}]> : tensor<16x8xf32>
// CHECK-NEXT: %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{"z"}, {"y", "x"}]> : tensor<16x8xf32>
// CHECK-NEXT: return %1 : tensor<16x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @slice_at_source_then_all_to_all(%arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {"x"}, {}]>}) -> tensor<8x8x8xf32> {
// CHECK-NEXT: %0 = sdy.all_slice [{}, {"y"}, {}] %arg0 out_sharding=<@mesh, [{"z"}, {"x", "y"}, {}]> : tensor<8x8x8xf32>
// CHECK-NEXT: %1 = sdy.all_to_all [{"x", "y"}: 1->2] %0 out_sharding=<@mesh, [{"z"}, {}, {"x", "y"}]> : tensor<8x8x8xf32>
// CHECK-NEXT: %2 = sdy.all_to_all [{"z"}: 0->2] %1 out_sharding=<@mesh, [{}, {}, {"x", "y", "z"}]> : tensor<8x8x8xf32>
// CHECK-NEXT: return %2 : tensor<8x8x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @unreduced_output(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = sdy.all_slice [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}], unreduced={"z"}> : tensor<16x8xf32>
// CHECK-NEXT: %1 = sdy.collective_permute %0 out_sharding=<@mesh, [{"y"}, {"x"}], unreduced={"z"}> : tensor<16x8xf32>
// CHECK-NEXT: return %1 : tensor<16x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @device_order(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
// CHECK-NEXT: %0 = sdy.collective_permute %arg0 out_sharding=<@mesh_rev, [{"x"}, {}]> : tensor<16x8xf32>
// CHECK-NEXT: %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh_rev, [{}, {"x"}]> : tensor<16x8xf32>
// CHECK-NEXT: %2 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
// CHECK-NEXT: return %1, %2 : tensor<16x8xf32>, tensor<16x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @chain(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
// CHECK-NEXT: %0 = sdy.all_slice [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
// CHECK-NEXT: %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<16x8xf32>
// CHECK-NEXT: %2 = sdy.all_to_all [{"y"}: 1->0] %1 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
// CHECK-NEXT: return %2 : tensor<16x8xf32>
// CHECK-NEXT: }
// A dimension that both shardings pad to the same size (6 split 4 or 8 ways is 8), or that ends replicated, is
// resharded like any other on every line.
// CHECK-LABEL: func.func @same_padded_size_sliced(%arg0: tensor<6x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}, {}]>}) -> tensor<6x8x8xf32> {
// CHECK-NEXT: %0 = sdy.all_slice [{"z"}, {}, {}] %arg0 out_sharding=<@mesh, [{"y", "x", "z"}, {}, {}]> : tensor<6x8x8xf32>
// CHECK-NEXT: return %0 : tensor<6x8x8xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func @emptied_by_all_to_alls(%arg0: tensor<6x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}, {}]>}) -> tensor<6x8x8xf32> {
// CHECK-NEXT: %0 = sdy.all_to_all [{"x"}: 0->2] %arg0 out_sharding=<@mesh, [{"y"}, {}, {"x"}]> : tensor<6x8x8xf32>
// CHECK-NEXT: %1 = sdy.all_to_all [{"y"}: 0->1] %0 out_sharding=<@mesh, [{}, {"y"}, {"x"}]> : tensor<6x8x8xf32>
// CHECK-NEXT: return %1 : tensor<6x8x8xf32>
// CHECK-NEXT: }

// KEEP-LABEL: func.func @chain(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
// KEEP-NEXT: %0 = sdy.all_slice [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
// KEEP-NEXT: %1 = sdy.reshard %0 <@mesh, [{"y"}, {}]> : tensor<16x8xf32>
// KEEP-NEXT: %2 = stablehlo.add %1, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<16x8xf32>
// KEEP-NEXT: %3 = sdy.all_to_all [{"y"}: 1->0] %2 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
// KEEP-NEXT: return %3 : tensor<16x8xf32>
// KEEP-NEXT: }

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
sdy.mesh @mesh_48 = <["x"=4, "y"=8]>
sdy.mesh @mesh_rev = <["x"=2, "y"=2, "z"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>

func.func @gather_and_slice(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {"z"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

func.func @sub_axes(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh_48, [{"y"}, {"x":(1)2}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh_48, [{"y":(1)4}, {"x"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

func.func @move_axes_between_dims(%arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}, {}]>}) -> tensor<8x8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {}, {"x", "y"}]> : tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

func.func @swap_and_reorder(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {"z"}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"z"}, {"y", "x"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

func.func @slice_at_source_then_all_to_all(%arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {"x"}, {}]>}) -> tensor<8x8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {}, {"x", "y", "z"}]> : tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

func.func @unreduced_output(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {"x"}], unreduced={"z"}> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

func.func @device_order(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = sdy.reshard %arg0 <@mesh_rev, [{}, {"x"}]> : tensor<16x8xf32>
  %1 = sdy.reshard %arg0 <@mesh_rev, [{}, {}]> : tensor<16x8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
}

func.func @chain(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  %2 = stablehlo.add %1, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<16x8xf32>
  %3 = sdy.reshard %2 <@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  return %3 : tensor<16x8xf32>
}

func.func @same_padded_size_sliced(%arg0: tensor<6x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}, {}]>}) -> tensor<6x8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"y", "x", "z"}, {}, {}]> : tensor<6x8x8xf32>
  return %0 : tensor<6x8x8xf32>
}

func.func @emptied_by_all_to_alls(%arg0: tensor<6x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}, {}]>}) -> tensor<6x8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {"y"}, {"x"}]> : tensor<6x8x8xf32>
  return %0 : tensor<6x8x8xf32>
}
