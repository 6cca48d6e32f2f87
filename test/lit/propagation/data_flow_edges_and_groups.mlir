// RUN: pysdy-opt %s -sdy-basic-propagate -split-input-file | filecheck %s

// Data-flow edges (as sdy-add-data-flow-edges leaves them) and sharding groups, through sdy-basic-propagate.

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @while_edges(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
// CHECK-NEXT:    %0 = sdy.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %1:2 = stablehlo.while(%iterArg = %0, %iterArg_0 = %arg1) : tensor<i32>, tensor<8x16xf32>
// CHECK-NEXT:    cond {
// CHECK-NEXT:    %4 = sdy.constant dense<4> : tensor<i32>
// CHECK-NEXT:    %5 = stablehlo.compare LT, %iterArg, %4 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:    stablehlo.return %5 : tensor<i1>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    %4 = sdy.constant dense<1> : tensor<i32>
// CHECK-NEXT:    %5 = stablehlo.add %iterArg, %4 : tensor<i32>
// CHECK-NEXT:    %6 = stablehlo.add %iterArg_0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    stablehlo.return %5, %6 : tensor<i32>, tensor<8x16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %2 = sdy.data_flow_edge %1#0 : tensor<i32>
// CHECK-NEXT:    %3 = sdy.data_flow_edge %1#1 sharding=<@mesh, [{"a", ?}, {?}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %3 : tensor<8x16xf32>
// CHECK-NEXT:  }
// Shardings flow through a while loop's data-flow edges, into its body and out.
func.func @while_edges(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c = sdy.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c, %x = %arg1) : tensor<i32>, tensor<8x16xf32>
    cond {
      %lim = sdy.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %lim : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = sdy.constant dense<1> : tensor<i32>
      %n = stablehlo.add %i, %one : tensor<i32>
      %y = stablehlo.add %x, %arg0 : tensor<8x16xf32>
      stablehlo.return %n, %y : tensor<i32>, tensor<8x16xf32>
    }
  %1 = sdy.data_flow_edge %0#0 : tensor<i32>
  %2 = sdy.data_flow_edge %0#1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @optimization_barrier(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.optimization_barrier %arg0 : tensor<8x16xf32>
// CHECK-NEXT:    %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{?}, {"b", ?}]> : tensor<8x16xf32>
// CHECK-NEXT:    %2 = stablehlo.abs %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %2 : tensor<8x16xf32>
// CHECK-NEXT:  }
func.func @optimization_barrier(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<8x16xf32>
  %1 = sdy.data_flow_edge %0 : tensor<8x16xf32>
  %2 = stablehlo.abs %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @sharding_group(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    sdy.sharding_group %0 group_id=0 : tensor<8x16xf32>
// CHECK-NEXT:    sdy.sharding_group %1 group_id=0 : tensor<8x16xf32>
// CHECK-NEXT:    %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %2 : tensor<8x16xf32>
// CHECK-NEXT:  }
// Values in one sharding group end up sharded alike.
func.func @sharding_group(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
  %1 = stablehlo.negate %arg1 : tensor<8x16xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x16xf32>
  sdy.sharding_group %1 group_id=0 : tensor<8x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @named_computation_operand_sharded_later(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) {
// CHECK-NEXT:    %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    %1 = sdy.named_computation<"f">(%0) (%arg2: tensor<8x16xf32>) {
// CHECK-NEXT:    %4 = sdy.data_flow_edge %arg2 : tensor<8x16xf32>
// CHECK-NEXT:    %5 = stablehlo.abs %4 : tensor<8x16xf32>
// CHECK-NEXT:    sdy.return %5 : tensor<8x16xf32>
// CHECK-NEXT:    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %2 = sdy.data_flow_edge %1 : tensor<8x16xf32>
// CHECK-NEXT:    %3 = stablehlo.add %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT:    return %2, %3 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT:  }
// A named computation's operand gets its sharding after the edge on its block argument was
// visited: Shardy revisits the named computation, not that edge, so the sharding stays outside.
func.func @named_computation_operand_sharded_later(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = sdy.named_computation<"f">(%0) (%arg2: tensor<8x16xf32>) {
    %4 = sdy.data_flow_edge %arg2 : tensor<8x16xf32>
    %5 = stablehlo.abs %4 : tensor<8x16xf32>
    sdy.return %5 : tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = sdy.data_flow_edge %1 : tensor<8x16xf32>
  %3 = stablehlo.add %0, %arg1 : tensor<8x16xf32>
  return %2, %3 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @named_computation_in_while_body(
// CHECK-SAME:      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) {
// CHECK-NEXT:    %0 = sdy.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %1:2 = stablehlo.while(%iterArg = %0, %iterArg_0 = %arg0) : tensor<i32>, tensor<8x16xf32>
// CHECK-NEXT:    cond {
// CHECK-NEXT:    %4 = sdy.constant dense<4> : tensor<i32>
// CHECK-NEXT:    %5 = stablehlo.compare LT, %iterArg, %4 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:    stablehlo.return %5 : tensor<i1>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    %4 = sdy.named_computation<"g">(%iterArg_0) (%arg1: tensor<8x16xf32>) {
// CHECK-NEXT:    %8 = sdy.data_flow_edge %arg1 : tensor<8x16xf32>
// CHECK-NEXT:    %9 = stablehlo.abs %8 : tensor<8x16xf32>
// CHECK-NEXT:    sdy.return %9 : tensor<8x16xf32>
// CHECK-NEXT:    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %5 = sdy.data_flow_edge %4 : tensor<8x16xf32>
// CHECK-NEXT:    %6 = sdy.constant dense<1> : tensor<i32>
// CHECK-NEXT:    %7 = stablehlo.add %iterArg, %6 : tensor<i32>
// CHECK-NEXT:    stablehlo.return %7, %iterArg_0 : tensor<i32>, tensor<8x16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %2 = sdy.data_flow_edge %1#0 : tensor<i32>
// CHECK-NEXT:    %3 = sdy.data_flow_edge %1#1 sharding=<@mesh, [{?}, {"b", ?}]> : tensor<8x16xf32>
// CHECK-NEXT:    return %3 : tensor<8x16xf32>
// CHECK-NEXT:  }
// The same for a named computation in a while body fed by the body's block argument: the
// while's edge gets the sharding, the named computation's block argument does not.
func.func @named_computation_in_while_body(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> tensor<8x16xf32> {
  %c = sdy.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c, %x = %arg0) : tensor<i32>, tensor<8x16xf32>
    cond {
      %lim = sdy.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %lim : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %y = sdy.named_computation<"g">(%x) (%arg1: tensor<8x16xf32>) {
        %e = sdy.data_flow_edge %arg1 : tensor<8x16xf32>
        %a = stablehlo.abs %e : tensor<8x16xf32>
        sdy.return %a : tensor<8x16xf32>
      } : (tensor<8x16xf32>) -> tensor<8x16xf32>
      %z = sdy.data_flow_edge %y : tensor<8x16xf32>
      %one = sdy.constant dense<1> : tensor<i32>
      %n = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %n, %x : tensor<i32>, tensor<8x16xf32>
    }
  %1 = sdy.data_flow_edge %0#0 : tensor<i32>
  %2 = sdy.data_flow_edge %0#1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func @group_of_loop_body_arguments(
// CHECK-SAME: %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) {
// CHECK-NEXT: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: cond {
// CHECK-NEXT: %3 = sdy.constant dense<true> : tensor<i1>
// CHECK-NEXT: stablehlo.return %3 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: sdy.sharding_group %iterArg group_id=0 : tensor<8x16xf32>
// CHECK-NEXT: sdy.sharding_group %iterArg_0 group_id=0 : tensor<8x16xf32>
// CHECK-NEXT: %3 = stablehlo.add %iterArg_0, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT: sdy.sharding_group %3 group_id=0 : tensor<8x16xf32>
// CHECK-NEXT: stablehlo.return %iterArg, %3 : tensor<8x16xf32>, tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"a", ?}, {"b", ?}]> : tensor<8x16xf32>
// CHECK-NEXT: %2 = sdy.data_flow_edge %0#1 sharding=<@mesh, [{?}, {"b", ?}]> : tensor<8x16xf32>
// CHECK-NEXT: return %2 : tensor<8x16xf32>
// CHECK-NEXT: }
// Groups are keyed by the grouped value: the body's block arguments (targets of the while's edges) get
// their group's sharding when %n changes, but a change of an edge's sharding does not reach the group.
func.func @group_of_loop_body_arguments(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32>, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> tensor<8x16xf32> {
  %0:2 = stablehlo.while(%x = %arg0, %y = %arg1) : tensor<8x16xf32>, tensor<8x16xf32>
    cond {
      %c = sdy.constant dense<true> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      sdy.sharding_group %x group_id=0 : tensor<8x16xf32>
      sdy.sharding_group %y group_id=0 : tensor<8x16xf32>
      %n = stablehlo.add %y, %arg2 : tensor<8x16xf32>
      sdy.sharding_group %n group_id=0 : tensor<8x16xf32>
      stablehlo.return %x, %n : tensor<8x16xf32>, tensor<8x16xf32>
    }
  %1 = sdy.data_flow_edge %0#0 : tensor<8x16xf32>
  %2 = sdy.data_flow_edge %0#1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
