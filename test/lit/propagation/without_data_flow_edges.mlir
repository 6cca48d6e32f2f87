// RUN: pysdy-opt %s -sdy-basic-propagate -split-input-file | filecheck %s

// Propagation run alone, without the import pipeline's data-flow edges: a manual computation's
// in_shardings and out_shardings hold its edge owners' shardings. Expected output is what jaxlib's
// C++ pass prints.

sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func @result_sharding_flows_out(
// CHECK-SAME:      %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) {
// CHECK-NEXT:    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
// CHECK-NEXT:      %2 = stablehlo.abs %arg1 : tensor<4xf32>
// CHECK-NEXT:      sdy.return %2 : tensor<4xf32>
// CHECK-NEXT:    } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<8xf32>
// CHECK-NEXT:    return %1 : tensor<8xf32>
// CHECK-NEXT:  }
func.func @result_sharding_flows_out(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%x: tensor<4xf32>) {
    %1 = stablehlo.abs %x : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %2 = stablehlo.abs %0 : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func @result_shards_a_constant_it_meets(
// CHECK-SAME:      %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) {
// CHECK-NEXT:    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
// CHECK-NEXT:      sdy.return %arg1 : tensor<4xf32>
// CHECK-NEXT:    } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %cst = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:    %1 = stablehlo.add %0, %cst {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<8xf32>
// CHECK-NEXT:    %2 = sdy.sharding_constraint %1 <@mesh, [{"a"}]> : tensor<8xf32>
// CHECK-NEXT:    return %2 : tensor<8xf32>
// CHECK-NEXT:  }
func.func @result_shards_a_constant_it_meets(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%x: tensor<4xf32>) {
    sdy.return %x : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.constant dense<1.0> : tensor<8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{"a"}]> : tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @user_sharding_flows_into_out_shardings(
// CHECK-SAME:      %arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
// CHECK-NEXT:    %1:2 = sdy.manual_computation(%0, %arg1) in_shardings=[<@mesh, [{"a"}, {?}]>, <@mesh, [{"a"}, {?}]>] out_shardings=[<@mesh, [{"a"}, {"b", ?}]>, <@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg2: tensor<4x16xf32>, %arg3: tensor<4x16xf32>) {
// CHECK-NEXT:      %3 = stablehlo.abs %arg2 : tensor<4x16xf32>
// CHECK-NEXT:      %4 = stablehlo.add %3, %arg3 : tensor<4x16xf32>
// CHECK-NEXT:      sdy.return %4, %3 : tensor<4x16xf32>, tensor<4x16xf32>
// CHECK-NEXT:    } : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK-NEXT:    %2 = stablehlo.add %1#0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %2, %1#1 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT:  }
func.func @user_sharding_flows_into_out_shardings(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1:2 = sdy.manual_computation(%0, %arg1) in_shardings=[<@mesh, [{"a"}, {?}]>, <@mesh, [{"a"}, {?}]>] out_shardings=[<@mesh, [{"a"}, {?}]>, <@mesh, [{"a"}, {}]>] manual_axes={"a"} (%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) {
    %4 = stablehlo.abs %x : tensor<4x16xf32>
    %5 = stablehlo.add %4, %y : tensor<4x16xf32>
    sdy.return %5, %4 : tensor<4x16xf32>, tensor<4x16xf32>
  } : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %3 = stablehlo.add %1#0, %arg1 : tensor<8x16xf32>
  return %3, %1#1 : tensor<8x16xf32>, tensor<8x16xf32>
}
