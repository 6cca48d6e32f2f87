// RUN: pysdy-opt %s -sdy-propagation-pipeline -split-input-file | filecheck %s

// A module's only function is its main function, whatever its name: its arguments get no function data-flow
// edge, so a sharding constraint of an argument constrains only its own users, and the argument returned beside
// it stays the argument.

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @returns_argument_beside_its_constraint(
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {"b"}]> : tensor<8x8xf32>
// CHECK-NEXT: return %arg0, %0 : tensor<8x8xf32>, tensor<8x8xf32>
func.func @returns_argument_beside_its_constraint(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {"b"}]> : tensor<8x8xf32>
  return %arg0, %0 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

// A while result grouped with a constrained value: the loop carries the group's sharding, and the constrained
// argument is resharded where it is returned.
// CHECK-LABEL: func.func @sharding_group_on_while_result(
// CHECK-SAME: -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) {
// CHECK: stablehlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<16x16xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, []>]>}
// CHECK: %4 = sdy.reshard %arg1 <@mesh, [{"a"}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: return %3#0, %4 : tensor<16x16xf32>, tensor<16x16xf32>
func.func @sharding_group_on_while_result(%arg0: tensor<16x16xf32>, %arg1: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %limit = stablehlo.constant dense<4> : tensor<i32>
  %0:2 = stablehlo.while(%x = %arg0, %i = %zero) : tensor<16x16xf32>, tensor<i32>
    cond {
    %c = stablehlo.compare LT, %i, %limit : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %next = stablehlo.add %i, %one : tensor<i32>
    %y = stablehlo.multiply %x, %x : tensor<16x16xf32>
    stablehlo.return %y, %next : tensor<16x16xf32>, tensor<i32>
  }
  sdy.sharding_group %0#0 group_id = 7 : tensor<16x16xf32>
  %1 = sdy.sharding_constraint %arg1 <@mesh, [{"a"}, {}]> : tensor<16x16xf32>
  sdy.sharding_group %1 group_id = 7 : tensor<16x16xf32>
  return %0#0, %1 : tensor<16x16xf32>, tensor<16x16xf32>
}
