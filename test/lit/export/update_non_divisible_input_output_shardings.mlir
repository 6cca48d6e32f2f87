// RUN: pysdy-opt %s -sdy-update-non-divisible-input-output-shardings | filecheck %s

// Non-divisible dimensions keep the largest evenly dividing prefix of their axes (possibly a sub-axis), on func inputs/outputs and call results.
// Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
// CHECK-LABEL: func.func @main(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {?}]>}, %arg1: tensor<3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], replicated={"y"}, unreduced={"z"}>}, %arg2: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x":(1)2}]>}, %arg3: tensor<2x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {?}]>}, %arg4: tensor<7xf32>) -> (tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", "x":(1)2}, {?}]>}, tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}) {
// CHECK-NEXT: %0 = stablehlo.slice %arg2 [0:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}]>]>} : (tensor<12xf32>) -> tensor<4xf32>
// CHECK-NEXT: %1 = call @callee(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %arg0, %1 : tensor<6x8xf32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @callee(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
// CHECK-NEXT: return %arg0 : tensor<4xf32>
// CHECK-NEXT: }

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

func.func @main(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {"z", ?}]>},
                %arg1: tensor<3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], replicated={"y"}, unreduced={"z"}>},
                %arg2: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}p1]>},
                %arg3: tensor<2x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y"}, {"z", ?}]>},
                %arg4: tensor<7xf32>)
    -> (tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", "x"}, {?}]>}, tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", ?}]>}) {
  %0 = stablehlo.slice %arg2 [0:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}]>]>} : (tensor<12xf32>) -> tensor<4xf32>
  %1 = call @callee(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}]>]>} : (tensor<4xf32>) -> tensor<4xf32>
  return %arg0, %1 : tensor<6x8xf32>, tensor<4xf32>
}
func.func private @callee(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "z"}]>}) {
  return %arg0 : tensor<4xf32>
}
