// RUN: pysdy-opt %s -sdy-basic-propagate -split-input-file 2>/dev/null | filecheck %s
// RUN: pysdy-opt %s -sdy-basic-propagate -split-input-file -verify-diagnostics -o /dev/null

// Sharding groups are synced before propagation (Shardy's syncGroupMemberShardings); the expected
// output is jaxlib 0.10.2's C++ sdy-basic-propagate on the same input.

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @constraint_synced_to_group(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.multiply %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %2 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: %3 = stablehlo.add %0, %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %3 : tensor<8x8xf32>
// CHECK-NEXT: }
// A constraint's sharding reaches the other member before propagation, closed as it is.
func.func @constraint_synced_to_group(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = stablehlo.multiply %arg1, %arg1 : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %2 group_id=0 : tensor<8x8xf32>
  %3 = stablehlo.add %0, %2 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @open_members_take_group_sharding(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}, %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}) {
// CHECK-NEXT: sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %arg1 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %arg2 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: return %arg0, %arg1, %arg2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: }
// Fully open members (even with replicated axes) count as unsharded and take the group's sharding.
func.func @open_members_take_group_sharding(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}], replicated={"a"}>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}, %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %arg2 group_id=0 : tensor<8x8xf32>
  return %arg0, %arg1, %arg2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @conflicting_members_get_open_constraints(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) {
// CHECK-NEXT: %0 = sdy.sharding_constraint %arg1 <@mesh, [{"a", ?}, {"b", ?}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharding_constraint %arg0 <@mesh, [{"a", ?}, {"b", ?}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = stablehlo.add %1, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.sharding_constraint %2 <@mesh, [{"a", ?}, {"b", ?}]> : tensor<8x8xf32>
// CHECK-NEXT: %4 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %3 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: %5 = stablehlo.multiply %3, %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %5 : tensor<8x8xf32>
// CHECK-NEXT: }
// Members with different shardings each get a fully open constraint right after them, which takes their
// place in the group and in every use; the shardings of the members themselves stay as they are.
// expected-warning@+1 {{The initial operand shardings on the sharding groups of groupID: 0 do not match. Inserting an open sharding constraint to all constrained values.}}
func.func @conflicting_members_get_open_constraints(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.negate %arg1 : tensor<8x8xf32>
  sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @closed_replicated_conflicts(
// CHECK-SAME: %arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
// CHECK-NEXT: %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharding_constraint %0 <@mesh, [{"a", ?}, {?}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %3 = sdy.sharding_constraint %2 <@mesh, [{"a", ?}, {?}]> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %3 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: return %1, %3 : tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: }
// A closed replicated sharding is a sharding: it conflicts with any other.
func.func @closed_replicated_conflicts(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  // expected-warning@+1 {{The initial operand shardings on the sharding groups of groupID: 0 do not match. Inserting an open sharding constraint to all constrained values.}}
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @groups_synced_separately(
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}, %arg3: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %1 = stablehlo.add %arg2, %arg3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %arg1 group_id=1 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %arg0 group_id=1 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %arg3 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %arg2 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: }
// Groups are synced in group id order, each on its own.
func.func @groups_synced_separately(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}, %arg3: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.add %arg2, %arg3 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id=1 : tensor<8x8xf32>
  sdy.sharding_group %arg0 group_id=1 : tensor<8x8xf32>
  sdy.sharding_group %arg3 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %arg2 group_id=0 : tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @conflicting_results_of_one_op(
// CHECK-SAME: %arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) {
// CHECK-NEXT: %0:2 = stablehlo.custom_call @foo(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, [{}, {"b"}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NEXT: %1 = sdy.sharding_constraint %0#1 <@mesh, [{"a", ?}, {"b", ?}]> : tensor<8x8xf32>
// CHECK-NEXT: %2 = sdy.sharding_constraint %0#0 <@mesh, [{"a", ?}, {"b", ?}]> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %2 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: return %2, %1 : tensor<8x8xf32>, tensor<8x8xf32>
// CHECK-NEXT: }
// Conflicting results of one op: each member's constraint goes right after the op, so the later member's
// comes first.
func.func @conflicting_results_of_one_op(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  // expected-warning@+2 {{The initial operand shardings on the sharding groups of groupID: 0 do not match. Inserting an open sharding constraint to all constrained values.}}
  // expected-warning@+1 {{custom call @foo is unknown to SDY sharding rule registry}}
  %0:2 = stablehlo.custom_call @foo(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, [{}, {"b"}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  sdy.sharding_group %0#0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %0#1 group_id=0 : tensor<8x8xf32>
  return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
}
