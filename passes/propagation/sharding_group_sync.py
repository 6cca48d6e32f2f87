"""Sharding groups synced before propagation (Shardy's syncGroupMemberShardings): members get the group's one
sharding, or, when they start with different ones, each a fully open constraint that takes its place."""

from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.dialects.sdy import TensorSharding
from pysdy.passes.common.data_flow import owning_op
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding, set_sharding
from pysdy.passes.common.values import insertion_point_after
from pysdy.passes.diagnostics import emit_warning
from pysdy.passes.import_.sharding_group_import import GROUP_OP, group_id
from pysdy.passes.registry import PassFailure


def sync_group_member_shardings(module: ir.Operation) -> None:
    """Syncs every group of `module`, in group id order; a value in two groups is an error."""
    for gid, members in sorted(_group_members(module).items()):
        sharding, conflict = _common_sharding(members)
        if sharding is None:
            continue
        if not conflict:
            for member in members:
                set_sharding(member, sharding)
            continue
        emit_warning(
            owning_op(members[0]).location,
            f"The initial operand shardings on the sharding groups of groupID: {gid} do not match. Inserting an "
            "open sharding constraint to all constrained values. This can be caused when shardings from different "
            "values are grouped (e.g. from jax.shard_alike) but have separate inconsistent sharding constraints "
            "on them.",
        )
        open_sharding = TensorSharding.fully_open(sharding.mesh, sharding.rank).to_attr()
        for index, member in enumerate(members):
            constraint = sdy.ShardingConstraintOp(
                member, open_sharding, loc=member.location, ip=insertion_point_after(member)
            ).operation
            member.replace_all_uses_except(constraint.results[0], constraint)
            members[index] = constraint.results[0]


def _group_members(module: ir.Operation) -> dict[int, list[ir.Value]]:
    """Group id -> the inputs of its `sdy.sharding_group` ops, in IR order (a value twice if grouped twice)."""
    members: dict[int, list[ir.Value]] = {}
    group_of: dict[ir.Value, int] = {}
    for op in nested_ops(module, name=GROUP_OP):
        value, gid = op.operands[0], group_id(op)
        if group_of.setdefault(value, gid) != gid:
            op.location.emit_error("Value can only map to one sharding group id after import.")
            raise PassFailure()
        members.setdefault(gid, []).append(value)
    return members


def _common_sharding(members: list[ir.Value]) -> tuple[TensorSharding | None, bool]:
    """The one sharding of the members that is not fully open and empty (None if none), and whether
    another member has a different one (then the first such sharding)."""
    if len(members) == 1:
        return get_sharding(members[0]), False
    common = None
    for member in members:
        sharding = get_sharding(member)
        if sharding is None or _is_fully_replicated_and_open(sharding):
            continue
        if common is None:
            common = sharding
        elif sharding != common:
            return common, True
    return common, False


def _is_fully_replicated_and_open(sharding: TensorSharding) -> bool:
    return all(not dim.axes and not dim.is_closed for dim in sharding.dims)
