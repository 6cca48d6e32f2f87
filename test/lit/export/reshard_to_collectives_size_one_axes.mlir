// RUN: pysdy-opt %s -split-input-file -sdy-reshard-to-collectives | filecheck %s
// RUN: pysdy-opt %s -split-input-file -sdy-reshard-to-collectives=keep-redundant-reshards=true | filecheck %s --check-prefix=KEEP

// Reshards with mesh axes of size 1, which no collective moves (jaxlib stops with them left where they are), chains
// of reshards, and which reshards keep-redundant-reshards keeps. Expected output: jaxlib's C++ pass on this input.

sdy.mesh @mesh = <["x"=1, "y"=2]>

// Slicing along an axis of size 1 changes nothing: no collective, the reshard goes.
// CHECK-LABEL: func.func @slice_size_one_axis(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<4xf32> {
// CHECK-NEXT: return %arg0 : tensor<4xf32>
// CHECK-NEXT: }
// KEEP-LABEL: func.func @slice_size_one_axis(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<4xf32> {
// KEEP-NEXT: return %arg0 : tensor<4xf32>
// KEEP-NEXT: }
func.func @slice_size_one_axis(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<4xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=1, "y"=2]>

// "y" is sliced and the size-1 "x" stays out: the collectives end on [{"y"}].
// CHECK-LABEL: func.func @slice_with_size_one_axis_left_out(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<4x4xf32> {
// CHECK-NEXT: %0 = sdy.all_slice [{}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<4x4xf32>
// CHECK-NEXT: return %0 : tensor<4x4xf32>
// CHECK-NEXT: }
// KEEP-LABEL: func.func @slice_with_size_one_axis_left_out(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<4x4xf32> {
// KEEP-NEXT: %0 = sdy.all_slice [{}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<4x4xf32>
// KEEP-NEXT: return %0 : tensor<4x4xf32>
// KEEP-NEXT: }
func.func @slice_with_size_one_axis_left_out(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<4x4xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]> : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=1, "y"=2]>

// A size-1 axis before the one to slice: it is permuted away, not moved behind "y".
// CHECK-LABEL: func.func @size_one_axis_in_front(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
// CHECK-NEXT: %0 = sdy.all_slice [{"y"}] %arg0 out_sharding=<@mesh, [{"x", "y"}]> : tensor<4xf32>
// CHECK-NEXT: %1 = sdy.collective_permute %0 out_sharding=<@mesh, [{"y"}]> : tensor<4xf32>
// CHECK-NEXT: return %1 : tensor<4xf32>
// CHECK-NEXT: }
// KEEP-LABEL: func.func @size_one_axis_in_front(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
// KEEP-NEXT: %0 = sdy.all_slice [{"y"}] %arg0 out_sharding=<@mesh, [{"x", "y"}]> : tensor<4xf32>
// KEEP-NEXT: %1 = sdy.collective_permute %0 out_sharding=<@mesh, [{"y"}]> : tensor<4xf32>
// KEEP-NEXT: return %1 : tensor<4xf32>
// KEEP-NEXT: }
func.func @size_one_axis_in_front(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"y", "x"}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=1, "y"=2]>

// A reshard converts the value that replaces its input: the first reshard leaves "x" out, so the second gathers
// nothing and the third slices "y" from the unsharded value. With keep-redundant-reshards, the reshard to the
// same axes as its input (as the IR has it) stays.
// CHECK-LABEL: func.func @chain_through_size_one_axis(%arg0: tensor<6x1xf32>) -> (tensor<6x1xf32>, tensor<6x1xf32>, tensor<6x1xf32>) {
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {}]>]>} : tensor<6x1xf32>
// CHECK-NEXT: %1 = sdy.all_slice [{"y"}, {}] %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<6x1xf32>
// CHECK-NEXT: return %0, %0, %1 : tensor<6x1xf32>, tensor<6x1xf32>, tensor<6x1xf32>
// CHECK-NEXT: }
// KEEP-LABEL: func.func @chain_through_size_one_axis(%arg0: tensor<6x1xf32>) -> (tensor<6x1xf32>, tensor<6x1xf32>, tensor<6x1xf32>) {
// KEEP-NEXT: %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {}]>]>} : tensor<6x1xf32>
// KEEP-NEXT: %1 = sdy.reshard %0 <@mesh, [{"x"}, {}]> : tensor<6x1xf32>
// KEEP-NEXT: %2 = sdy.all_slice [{"y"}, {}] %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<6x1xf32>
// KEEP-NEXT: return %0, %1, %2 : tensor<6x1xf32>, tensor<6x1xf32>, tensor<6x1xf32>
// KEEP-NEXT: }
func.func @chain_through_size_one_axis(%arg0: tensor<6x1xf32>) -> (tensor<6x1xf32>, tensor<6x1xf32>, tensor<6x1xf32>) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {}]>]>} : tensor<6x1xf32>
  %1 = sdy.reshard %0 <@mesh, [{"x", ?}, {}]> : tensor<6x1xf32>
  %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<6x1xf32>
  %3 = sdy.reshard %1 <@mesh, [{"x"}, {}]> : tensor<6x1xf32>
  %4 = sdy.reshard %1 <@mesh, [{"y"}, {}]> : tensor<6x1xf32>
  return %2, %3, %4 : tensor<6x1xf32>, tensor<6x1xf32>, tensor<6x1xf32>
}
