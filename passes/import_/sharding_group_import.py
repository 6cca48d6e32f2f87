"""`sdy-sharding-group-import`: merge sharding groups that share a value, renumber them 0..N-1, drop
duplicate members, and check that a group neither crosses manual computations nor mixes shapes."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.manual_axes import enclosing_manual_computation
from pysdy.passes.registry import Pass, PassFailure, register_pass

GROUP_OP = "sdy.sharding_group"


def group_id(op: ir.Operation) -> int:
    return ir.IntegerAttr(op.attributes["group_id"]).value


class _EquivalenceClasses:
    """Union-find where a union keeps the first set's leader and members are remembered in insertion order."""

    def __init__(self):
        self.leader_of: dict[int, int] = {}
        self.members: list[int] = []

    def _add(self, member: int) -> None:
        if member not in self.leader_of:
            self.leader_of[member] = member
            self.members.append(member)

    def leader(self, member: int) -> int:
        while self.leader_of[member] != member:
            member = self.leader_of[member]
        return member

    def union(self, first: int, second: int) -> None:
        self._add(first)
        self._add(second)
        first_leader, second_leader = self.leader(first), self.leader(second)
        if first_leader != second_leader:
            self.leader_of[second_leader] = first_leader


def _same_op(first: ir.Operation | None, second: ir.Operation | None) -> bool:
    if first is None or second is None:
        return first is None and second is None
    return first == second


def _validate(groups: list[ir.Operation]) -> bool:
    manual_parent: dict[int, ir.Operation | None] = {}
    shape: dict[int, list[int]] = {}
    for op in groups:
        gid = group_id(op)
        parent = enclosing_manual_computation(op)
        if gid in manual_parent and not _same_op(manual_parent[gid], parent):
            op.location.emit_error(
                f"ShardingGroupOps values cannot cross ManualComputationOp boundaries for groupId: {gid}"
            )
            return False
        manual_parent.setdefault(gid, parent)
        value_shape = list(op.operands[0].type.shape)
        if shape.setdefault(gid, value_shape) != value_shape:
            op.location.emit_error(f"ShardingGroupOps values must have the same shape for groupId: {gid}")
            return False
    return True


@register_pass
@dataclasses.dataclass(frozen=True)
class ShardingGroupImportPass(Pass):
    argument = "sdy-sharding-group-import"
    summary = "Canonicalization and validation pass for sharding groups."

    def run(self, op: ir.Operation) -> None:
        groups = nested_ops(op, name=GROUP_OP)
        if not _validate(groups):
            raise PassFailure()
        by_value: list[tuple[ir.Value, list[ir.Operation]]] = []
        for group in groups:
            value = group.operands[0]
            for seen, members in by_value:
                if seen == value:
                    members.append(group)
                    break
            else:
                by_value.append((value, [group]))

        classes = _EquivalenceClasses()
        for _, members in by_value:
            for member in members:
                classes.union(group_id(members[0]), group_id(member))
        new_ids: dict[int, int] = {}
        for member in classes.members:
            if classes.leader(member) == member:
                new_ids[member] = len(new_ids)

        seen_values: dict[int, list[ir.Value]] = {}
        i64 = ir.IntegerType.get_signless(64)
        for _, members in by_value:
            for member in members:
                new_id = new_ids[classes.leader(group_id(member))]
                member.attributes["group_id"] = ir.IntegerAttr.get(i64, new_id)
        for _, members in by_value:
            for member in members:
                values = seen_values.setdefault(group_id(member), [])
                if any(v == member.operands[0] for v in values):
                    member.erase()
                else:
                    values.append(member.operands[0])
