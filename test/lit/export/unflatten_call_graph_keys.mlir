// RUN: pysdy-opt %s -split-input-file -sdy-unflatten-call-graph | filecheck %s --check-prefixes=COMMON,CHECK
// RUN: pysdy-opt %s -split-input-file -sdy-unflatten-call-graph=dedup-functions-fully=true | filecheck %s --check-prefixes=COMMON,FULLY

// What makes two copies of a function one: origin, manual axes and (unless dedup-functions-fully) shardings.
// Expected output: jaxlib's C++ pass on this input.

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

// COMMON-LABEL: func.func @main(
// COMMON-SAME: %arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// COMMON-NEXT: %0 = call @foo(%arg0) : (tensor<8x6xf32>) -> tensor<8x6xf32>
// COMMON-NEXT: %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x"} (%arg1: tensor<8x6xf32>) {
// COMMON-NEXT: %6 = func.call @foo_0(%arg1) : (tensor<8x6xf32>) -> tensor<8x6xf32>
// COMMON-NEXT: %7 = func.call @foo_0(%6) : (tensor<8x6xf32>) -> tensor<8x6xf32>
// COMMON-NEXT: sdy.return %7 : tensor<8x6xf32>
// COMMON-NEXT: } : (tensor<8x6xf32>) -> tensor<8x6xf32>
// COMMON-NEXT: %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"y"} (%arg1: tensor<8x6xf32>) {
// COMMON-NEXT: %6 = func.call @foo_2(%arg1) : (tensor<8x6xf32>) -> tensor<8x6xf32>
// COMMON-NEXT: sdy.return %6 : tensor<8x6xf32>
// COMMON-NEXT: } : (tensor<8x6xf32>) -> tensor<8x6xf32>
// COMMON-NEXT: %3 = call @foo(%2) : (tensor<8x6xf32>) -> tensor<8x6xf32>
// COMMON-NEXT: %4 = call @foo_4(%3) : (tensor<8x6xf32>) -> tensor<8x6xf32>
// COMMON-NEXT: %5 = call @foo(%4) : (tensor<8x6xf32>) -> tensor<8x6xf32>
// COMMON-NEXT: return %5 : tensor<8x6xf32>
// COMMON-NEXT: }
// COMMON-NEXT: func.func private @foo(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// COMMON-NEXT: %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
// COMMON-NEXT: return %0 : tensor<8x6xf32>
// COMMON-NEXT: }
// COMMON-NEXT: func.func private @foo_0(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// COMMON-NEXT: %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
// COMMON-NEXT: return %0 : tensor<8x6xf32>
// COMMON-NEXT: }
// COMMON-NEXT: func.func private @foo_1(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// COMMON-NEXT: %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
// COMMON-NEXT: return %0 : tensor<8x6xf32>
// COMMON-NEXT: }
// COMMON-NEXT: func.func private @foo_2(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// COMMON-NEXT: %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
// COMMON-NEXT: return %0 : tensor<8x6xf32>
// COMMON-NEXT: }
// COMMON-NEXT: func.func private @foo_3(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// COMMON-NEXT: %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
// COMMON-NEXT: return %0 : tensor<8x6xf32>
// COMMON-NEXT: }
// COMMON-NEXT: func.func private @foo_4(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
// COMMON-NEXT: %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
// COMMON-NEXT: return %0 : tensor<8x6xf32>
// COMMON-NEXT: }
// COMMON-NEXT: func.func private @foo_5(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.manual_axes = #sdy<manual_axes{"x"}>} {
// COMMON-NEXT: %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
// COMMON-NEXT: return %0 : tensor<8x6xf32>
// COMMON-NEXT: }
// Copies of @foo called in different manual contexts (sdy.func_manual_axes, which XLA's import of
// shard_map bodies sets): only copies of one context share a function, with or without
// dedup-functions-fully; an attribute other than manual axes counts as none, an empty one does not; the
// attribute is removed, the old name sdy.manual_axes is left alone.
func.func @main(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = call @foo(%arg0) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x"} (%arg1: tensor<8x6xf32>) {
    %5 = func.call @foo_0(%arg1) : (tensor<8x6xf32>) -> tensor<8x6xf32>
    %6 = func.call @foo_1(%5) : (tensor<8x6xf32>) -> tensor<8x6xf32>
    sdy.return %6 : tensor<8x6xf32>
  } : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"y"} (%arg1: tensor<8x6xf32>) {
    %5 = func.call @foo_2(%arg1) : (tensor<8x6xf32>) -> tensor<8x6xf32>
    sdy.return %5 : tensor<8x6xf32>
  } : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %3 = call @foo_3(%2) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %4 = call @foo_4(%3) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %7 = call @foo_5(%4) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %7 : tensor<8x6xf32>
}
func.func private @foo(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @foo_0(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo", sdy.func_manual_axes = #sdy<manual_axes{"x"}>} {
  %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @foo_1(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo", sdy.func_manual_axes = #sdy<manual_axes{"x"}>} {
  %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @foo_2(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo", sdy.func_manual_axes = #sdy<manual_axes{"y"}>} {
  %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @foo_3(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo", sdy.func_manual_axes = "x"} {
  %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @foo_4(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo", sdy.func_manual_axes = #sdy<manual_axes{}>} {
  %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
func.func private @foo_5(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "foo", sdy.manual_axes = #sdy<manual_axes{"x"}>} {
  %0 = stablehlo.abs %arg0 : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
sdy.mesh @other = <["x"=4, "y"=2, "z"=3]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32>) -> tensor<8x6xf32> {
// CHECK-NEXT: %0 = call @bar_0(%arg0, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %1 = call @bar_0(%0, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %2 = call @bar_2(%1, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %3 = call @bar_3(%2, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %4 = call @bar_3(%3, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %5 = call @bar_5(%4, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: %6 = call @bar_6(%5, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: return %6 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @bar_0(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32>) -> tensor<8x6xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @bar_1(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}, %arg1: tensor<8x6xf32>) -> tensor<8x6xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @bar_2(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @bar_3(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @bar_4(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{?}, {?}]>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @bar_5(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @bar_6(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{?}, {?}]>}) {
// CHECK-NEXT: return %arg0 : tensor<8x6xf32>
// CHECK-NEXT: }
// FULLY-LABEL: func.func @main(
// FULLY-SAME: %arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32>) -> tensor<8x6xf32> {
// FULLY-NEXT: %0 = call @bar_0(%arg0, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
// FULLY-NEXT: %1 = call @bar_0(%0, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
// FULLY-NEXT: %2 = call @bar_0(%1, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
// FULLY-NEXT: %3 = call @bar_0(%2, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
// FULLY-NEXT: %4 = call @bar_0(%3, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
// FULLY-NEXT: %5 = call @bar_0(%4, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
// FULLY-NEXT: %6 = call @bar_0(%5, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
// FULLY-NEXT: return %6 : tensor<8x6xf32>
// FULLY-NEXT: }
// FULLY-NEXT: func.func private @bar_0(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32>) -> tensor<8x6xf32> {
// FULLY-NEXT: return %arg0 : tensor<8x6xf32>
// FULLY-NEXT: }
// FULLY-NEXT: func.func private @bar_1(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}, %arg1: tensor<8x6xf32>) -> tensor<8x6xf32> {
// FULLY-NEXT: return %arg0 : tensor<8x6xf32>
// FULLY-NEXT: }
// FULLY-NEXT: func.func private @bar_2(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> {
// FULLY-NEXT: return %arg0 : tensor<8x6xf32>
// FULLY-NEXT: }
// FULLY-NEXT: func.func private @bar_3(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> {
// FULLY-NEXT: return %arg0 : tensor<8x6xf32>
// FULLY-NEXT: }
// FULLY-NEXT: func.func private @bar_4(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{?}, {?}]>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> {
// FULLY-NEXT: return %arg0 : tensor<8x6xf32>
// FULLY-NEXT: }
// FULLY-NEXT: func.func private @bar_5(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> {
// FULLY-NEXT: return %arg0 : tensor<8x6xf32>
// FULLY-NEXT: }
// FULLY-NEXT: func.func private @bar_6(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{?}, {?}]>}) {
// FULLY-NEXT: return %arg0 : tensor<8x6xf32>
// FULLY-NEXT: }
// Argument and result shardings tell copies apart as Shardy reads them: shardings only on a maximal
// mesh count as none (@bar_1 is @bar_0), missing ones as fully open on the first non-maximal mesh
// (@bar_4 is @bar_3, @bar_5 is not).
func.func @main(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = call @bar_0(%arg0, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %1 = call @bar_1(%0, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %2 = call @bar_2(%1, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %3 = call @bar_3(%2, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %4 = call @bar_4(%3, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %5 = call @bar_5(%4, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %6 = call @bar_6(%5, %arg1) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  return %6 : tensor<8x6xf32>
}
func.func private @bar_0(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "bar"} {
  return %arg0 : tensor<8x6xf32>
}
func.func private @bar_1(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}, %arg1: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {sdy.original_func_name = "bar"} {
  return %arg0 : tensor<8x6xf32>
}
func.func private @bar_2(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> attributes {sdy.original_func_name = "bar"} {
  return %arg0 : tensor<8x6xf32>
}
func.func private @bar_3(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> attributes {sdy.original_func_name = "bar"} {
  return %arg0 : tensor<8x6xf32>
}
func.func private @bar_4(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{?}, {?}]>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> attributes {sdy.original_func_name = "bar"} {
  return %arg0 : tensor<8x6xf32>
}
func.func private @bar_5(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> tensor<8x6xf32> attributes {sdy.original_func_name = "bar"} {
  return %arg0 : tensor<8x6xf32>
}
func.func private @bar_6(%arg0: tensor<8x6xf32>, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {?}]>}) -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@other, [{?}, {?}]>}) attributes {sdy.original_func_name = "bar"} {
  return %arg0 : tensor<8x6xf32>
}
