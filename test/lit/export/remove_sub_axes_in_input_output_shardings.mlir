// RUN: pysdy-opt %s -sdy-remove-sub-axes-in-input-output-shardings | filecheck %s

// Open dimensions of main's inputs/outputs are cut at their first sub-axis; closed ones and other functions are untouched.
// Expected output: jaxlib's C++ pass on this input.

// CHECK: sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
// CHECK-LABEL: func.func @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"x":(2)2}]>}, %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}p0], replicated={"z"}>}, %arg2: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}], unreduced={"z"}>}) -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}, tensor<16xf32>) {
// CHECK-NEXT: %0 = call @other(%arg1) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: return %arg0, %0 : tensor<16x8xf32>, tensor<16xf32>
// CHECK-NEXT: }
// CHECK-LABEL: func.func private @other(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}]>}) {
// CHECK-NEXT: return %arg0 : tensor<16xf32>
// CHECK-NEXT: }

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>

func.func @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y", ?}, {"x":(2)2}]>},
                %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x":(2)2, ?}p0], replicated={"z"}>},
                %arg2: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2, ?}], unreduced={"z"}>})
    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2, "y", ?}, {"x":(1)2, ?}]>}, tensor<16xf32>) {
  %0 = call @other(%arg1) : (tensor<16xf32>) -> tensor<16xf32>
  return %arg0, %0 : tensor<16x8xf32>, tensor<16xf32>
}
func.func private @other(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, ?}]>}) {
  return %arg0 : tensor<16xf32>
}
