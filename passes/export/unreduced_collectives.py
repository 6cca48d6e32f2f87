"""The collectives that unreduced axes call for: `sdy.all_reduce` where unreduced axes stop being unreduced, and `sdy.replicated_to_unreduced` / `sdy.sharded_to_unreduced` where axes become unreduced."""

from __future__ import annotations

from typing import Optional, Sequence

from jaxlib.mlir import ir

from pysdy.dialects.sdy import AxisRef, TensorSharding
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.export.reshard_ir import (
    MeshTable,
    axis_list_attr,
    axis_set_diff,
    create_all_reduce,
    sort_and_merge_axes,
    with_unreduced,
)
from pysdy.passes.propagation import axis_refs
from pysdy.passes.propagation.axis_refs import PrefixStatus
from pysdy.passes.registry import PassFailure


def all_reduce_if_unreduced_to_replicated(
    user: ir.Operation,
    operand_index: int,
    source: Optional[TensorSharding],
    target: Optional[TensorSharding],
    meshes: MeshTable,
) -> Optional[TensorSharding]:
    """All-reduces the operand over its unreduced axes that `target` does not have unreduced (at the current insertion point).

    Returns the operand's sharding after that (`source` if nothing was needed).
    """
    if source is None or not source.unreduced:
        return source
    target_unreduced = target.unreduced if target is not None else ()
    axes = axis_set_diff(source.unreduced, target_unreduced, meshes.of(source))
    if not axes:
        return source
    sharding = with_unreduced(source, axis_set_diff(source.unreduced, axes, meshes.of(source)))
    user.operands[operand_index] = create_all_reduce(user.operands[operand_index], axes, sharding)
    return sharding


def _unreduced_axes(value: ir.Value) -> tuple[AxisRef, ...]:
    sharding = get_sharding(value)
    return sharding.unreduced if sharding is not None else ()


def all_reduce_unreduced_operands(op: ir.Operation, meshes: MeshTable) -> None:
    """All-reduces each operand over its unreduced axes that the op's (first) result does not have unreduced.

    The op's results must all have the same unreduced axes, and an op without results no unreduced operands:
    Shardy checks both (aborting the process), pysdy reports the op.
    """
    if not op.results:
        if any(_unreduced_axes(operand) for operand in op.operands):
            op.location.emit_error("some operands have unreduced axes but the operation has no results")
            raise PassFailure()
        return
    if any(_unreduced_axes(result) != _unreduced_axes(op.results[0]) for result in op.results):
        op.location.emit_error("the results of the operation have different unreduced axes")
        raise PassFailure()
    result_sharding = get_sharding(op.results[0])
    with ir.InsertionPoint(op):
        for index, operand in enumerate(op.operands):
            sharding = get_sharding(operand)
            if sharding is not None:
                all_reduce_if_unreduced_to_replicated(op, index, sharding, result_sharding, meshes)


def all_reduce_results(op: ir.Operation, axes: Sequence[AxisRef], mesh_name: str) -> None:
    """Follows each result of `op` with an `sdy.all_reduce` over `axes`, keeping the result's sharding."""
    with ir.InsertionPoint.after(op):
        for result in op.results:
            sharding = get_sharding(result) or TensorSharding.fully_closed(mesh_name, result.type.rank)
            reduced = create_all_reduce(result, axes, sharding)
            result.replace_all_uses_except(reduced, reduced.owner.operation)


def reduction_axes_needing_all_reduce(
    reduction_axes: list[AxisRef], op: ir.Operation, meshes: MeshTable, mesh_name: str
) -> list[AxisRef]:
    result_sharding = get_sharding(op.results[0])
    unreduced = result_sharding.unreduced if result_sharding is not None else ()
    mesh = meshes.meshes[mesh_name]
    return sort_and_merge_axes(axis_set_diff(reduction_axes, unreduced, mesh), mesh)


def _sharded_to_unreduced_axes_per_dim(
    in_sharding: TensorSharding, out_sharding: TensorSharding, meshes: MeshTable
) -> list[list[AxisRef]]:
    """Per dimension, the axes sharding it in `in_sharding` that `out_sharding` drops (to make them unreduced)."""
    mesh = meshes.of(in_sharding)
    per_dim = []
    for in_dim, out_dim in zip(in_sharding.dims, out_sharding.dims):
        in_axes, out_axes = in_dim.axes, out_dim.axes
        status = axis_refs.axis_list_prefix_status(out_axes, in_axes)
        if status is PrefixStatus.EQUAL:
            per_dim.append([])
            continue
        diff = []
        if out_axes and out_axes[-1] != in_axes[len(out_axes) - 1]:
            diff.append(axis_refs.suffix_without_overlap(in_axes[len(out_axes) - 1], out_axes[-1], mesh))
        diff.extend(in_axes[len(out_axes):])
        per_dim.append(diff)
    return per_dim


def to_unreduced(
    value: ir.Value, in_sharding: TensorSharding, out_sharding: TensorSharding, meshes: MeshTable, loc: ir.Location
) -> Optional[tuple[ir.Value, TensorSharding]]:
    """Makes `value` unreduced along the axes `out_sharding` has unreduced and `in_sharding` does not (at the current insertion point).

    Axes that shard a dimension go through `sdy.sharded_to_unreduced`, the
    others through `sdy.replicated_to_unreduced` (first, as it keeps the
    sharded size). Returns the new value and its sharding, or None if no axis
    becomes unreduced.
    """
    if not out_sharding.unreduced:
        return None
    mesh = meshes.of(in_sharding)
    new_unreduced = axis_set_diff(out_sharding.unreduced, in_sharding.unreduced, mesh)
    if not new_unreduced:
        return None
    per_dim = _sharded_to_unreduced_axes_per_dim(in_sharding, out_sharding, meshes)
    sharded_to_unreduced = [ref for axes in per_dim for ref in axes]
    replicated_to_unreduced = axis_set_diff(new_unreduced, sharded_to_unreduced, mesh)
    sharding = in_sharding
    if replicated_to_unreduced:
        unreduced = sort_and_merge_axes(list(in_sharding.unreduced) + replicated_to_unreduced, mesh)
        sharding = TensorSharding(in_sharding.mesh, in_sharding.dims, out_sharding.replicated, tuple(unreduced))
        value = ir.Operation.create(
            "sdy.replicated_to_unreduced",
            results=[value.type],
            operands=[value],
            attributes={"axes": axis_list_attr(replicated_to_unreduced), "out_sharding": sharding.to_attr()},
            loc=loc,
        ).results[0]
    if sharded_to_unreduced:
        sharding = out_sharding
        per_dim_attr = ir.Attribute.parse(
            "#sdy<list_of_axis_ref_lists[" + ", ".join("{" + ", ".join(map(str, axes)) + "}" for axes in per_dim) + "]>"
        )
        value = ir.Operation.create(
            "sdy.sharded_to_unreduced",
            results=[value.type],
            operands=[value],
            attributes={"axes": per_dim_attr, "out_sharding": sharding.to_attr()},
            loc=loc,
        ).results[0]
    return value, sharding


def unreduced_collectives_for_use(
    user: ir.Operation, operand_index: int, target: Optional[TensorSharding], meshes: MeshTable
) -> Optional[TensorSharding]:
    """Makes the operand unreduced along `target`'s new unreduced axes (at the current insertion point); returns its new sharding, or None."""
    source = get_sharding(user.operands[operand_index])
    if source is None or target is None:
        return None
    operand = user.operands[operand_index]
    converted = to_unreduced(operand, source, target, meshes, operand.location)
    if converted is None:
        return None
    user.operands[operand_index] = converted[0]
    return converted[1]


def reshard_to_unreduced_collectives(reshard: ir.Operation, meshes: MeshTable) -> bool:
    """Replaces an `sdy.reshard` that makes axes unreduced by replicated/sharded-to-unreduced ops; returns whether it did."""
    in_sharding = get_sharding(reshard.operands[0])
    if in_sharding is None:
        return False
    out_sharding = TensorSharding.from_attr(reshard.attributes["sharding"])
    with ir.InsertionPoint(reshard):
        converted = to_unreduced(reshard.operands[0], in_sharding, out_sharding, meshes, reshard.location)
    if converted is None:
        return False
    reshard.results[0].replace_all_uses_with(converted[0])
    reshard.erase()
    return True
