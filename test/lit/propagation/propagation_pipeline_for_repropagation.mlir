// RUN: pysdy-opt %s -sdy-propagation-pipeline='avoid-export-for-partitioning=true' -split-input-file | filecheck %s

// The constraint stays a constraint and the sharding group stays: a partitioner that propagates again reads both.
// CHECK-LABEL: func.func @constraint_and_group_kept(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
// CHECK-NEXT:    %0 = stablehlo.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
// CHECK-NEXT:    sdy.sharding_group %1 group_id=0 : tensor<8x16xf32>
// CHECK-NEXT:    sdy.sharding_group %arg1 group_id=0 : tensor<8x16xf32>
// CHECK-NEXT:    %2 = stablehlo.add %1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %2 : tensor<8x16xf32>
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @constraint_and_group_kept(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.tanh %arg0 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
  sdy.sharding_group %1 group_id=0 : tensor<8x16xf32>
  sdy.sharding_group %arg1 group_id=0 : tensor<8x16xf32>
  %2 = stablehlo.add %1, %arg1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

// The partial sums of the dot stay unreduced along "y" with no all-reduce: the partitioner inserts it.
// CHECK-LABEL: func.func @unreduced_left_for_the_partitioner(
// CHECK-NEXT:    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:    %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT:    return %1 : tensor<8x8xf32>
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @unreduced_left_for_the_partitioner(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
