// REQUIRES: redundant_reshards_compare_unreduced
// RUN: pysdy-opt %s -split-input-file -sdy-reshard-to-collectives | filecheck %s
// RUN: pysdy-opt %s -split-input-file -sdy-reshard-to-collectives=keep-redundant-reshards=true | filecheck %s --check-prefix=KEEP

// keep-redundant-reshards keeps a reshard that differs from its input only in open dimensions or replicated
// axes; one whose unreduced axes differ is not redundant and is converted (no collective adds unreduced axes, so
// it goes), as jaxlib 0.11's and 0.12's Shardy do. Without the option both go. Expected output: those lines' C++
// pass on this input.

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// CHECK-LABEL: func.func @redundant_but_for_added_unreduced(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
// CHECK-NEXT: return %arg0 : tensor<16x8xf32>
// CHECK-NEXT: }
// KEEP-LABEL: func.func @redundant_but_for_added_unreduced(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
// KEEP-NEXT: return %arg0 : tensor<16x8xf32>
// KEEP-NEXT: }
func.func @redundant_but_for_added_unreduced(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x", ?}, {"y"}], unreduced={"z"}> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @redundant_but_for_unreduced(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {}], replicated={"y"}>}) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
// CHECK-NEXT: return %arg0, %arg0 : tensor<4x4xf32>, tensor<4x4xf32>
// CHECK-NEXT: }
// KEEP-LABEL: func.func @redundant_but_for_unreduced(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {}], replicated={"y"}>}) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
// KEEP-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<4x4xf32>
// KEEP-NEXT: return %arg0, %0 : tensor<4x4xf32>, tensor<4x4xf32>
// KEEP-NEXT: }
func.func @redundant_but_for_unreduced(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {}], replicated={"y"}>}) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<4x4xf32>
  %1 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
}
