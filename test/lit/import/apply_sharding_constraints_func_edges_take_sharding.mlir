// RUN: pysdy-opt %s -sdy-add-func-data-flow-edges -sdy-apply-sharding-constraints -split-input-file | filecheck %s
// REQUIRES: !apply_sharding_constraints_func_edges_are_targets

// Before jax 0.12, a function argument's data-flow edge takes the sharding of a constraint on it (or of a manual computation's in_sharding).

// A manual computation's in_sharding on an argument goes onto the edge.
// CHECK: sdy.mesh @mesh = <["x"=2]>
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %arg0: tensor<8xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %0 = call @manual_computation_on_argument(%arg0) : (tensor<8xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %1 = sdy.func_data_flow_edge %0 : tensor<16xf32>
// CHECK-NEXT:    return %1 : tensor<16xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func private @manual_computation_on_argument(
// CHECK-SAME:      %arg0: tensor<8xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>
// CHECK-NEXT:    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<8xf32>) {
// CHECK-NEXT:      sdy.return %arg1 : tensor<8xf32>
// CHECK-NEXT:    } : (tensor<8xf32>) -> tensor<16xf32>
// CHECK-NEXT:    return %1 : tensor<16xf32>
// CHECK-NEXT:  }
sdy.mesh @mesh = <["x"=2]>

func.func @main(%arg0: tensor<8xf32>) -> tensor<16xf32> {
  %0 = call @manual_computation_on_argument(%arg0) : (tensor<8xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

func.func private @manual_computation_on_argument(%arg0: tensor<8xf32>) -> tensor<16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// A constraint on an argument goes onto the edge; the argument's other use (the negate) reads the edge.
// CHECK: sdy.mesh @mesh = <["x"=2]>
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    %0 = call @constraint_on_argument(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %1 = sdy.func_data_flow_edge %0 : tensor<8xf32>
// CHECK-NEXT:    return %1 : tensor<8xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func private @constraint_on_argument(
// CHECK-SAME:      %arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
// CHECK-NEXT:    %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}]> {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : tensor<8xf32>
// CHECK-NEXT:    %2 = stablehlo.abs %1 : tensor<8xf32>
// CHECK-NEXT:    %3 = stablehlo.negate %0 : tensor<8xf32>
// CHECK-NEXT:    %4 = stablehlo.add %2, %3 : tensor<8xf32>
// CHECK-NEXT:    return %4 : tensor<8xf32>
// CHECK-NEXT:  }
sdy.mesh @mesh = <["x"=2]>

func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @constraint_on_argument(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @constraint_on_argument(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8xf32>
  %1 = stablehlo.abs %0 : tensor<8xf32>
  %2 = stablehlo.negate %arg0 : tensor<8xf32>
  %3 = stablehlo.add %1, %2 : tensor<8xf32>
  return %3 : tensor<8xf32>
}
