"""The collectives that unreduced axes call for: `sdy.all_reduce` where unreduced axes stop being unreduced, and `sdy.replicated_to_unreduced` / `sdy.sharded_to_unreduced` where axes become unreduced."""

from __future__ import annotations

import dataclasses
from typing import Optional, Sequence

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.passes.common.reduction_bodies import body_reduction

from pysdy.dialects.sdy import AxisRef, Mesh, TensorSharding
from pysdy.passes.common.value_shardings import get_sharding, set_result_sharding
from pysdy.passes.export.reshard_ir import (
    MeshTable,
    axis_list_attr,
    axis_set_diff,
    create_all_reduce,
    create_reshard,
    is_equivalent,
    sort_and_merge_axes,
    with_unreduced,
)
from pysdy.passes.propagation import axis_refs
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
    _check_same_mesh(source, target, meshes, user, "the operand has unreduced axes but its user's sharding has another mesh")
    target_unreduced = target.unreduced if target is not None else ()
    axes = axis_set_diff(source.unreduced, target_unreduced, meshes.of(source))
    if not axes:
        return source
    sharding = with_unreduced(source, axis_set_diff(source.unreduced, axes, meshes.of(source)))
    user.operands[operand_index] = create_all_reduce(user.operands[operand_index], axes, sharding, source.reduction)
    return sharding


def _check_same_mesh(
    first: TensorSharding, second: Optional[TensorSharding], meshes: MeshTable, op: ir.Operation, message: str
) -> None:
    """Reports `message` on `op` if `second` has another mesh than `first` (device order counts); Shardy aborts there."""
    if second is not None and meshes.of(first) != meshes.of(second):
        op.location.emit_error(message)
        raise PassFailure()


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


def all_reduce_results(
    op: ir.Operation, axes: Sequence[AxisRef], mesh_name: str, mesh: Mesh, mark_unreduced: bool
) -> None:
    """Follows each result of `op` with an `sdy.all_reduce` over `axes` to the result's sharding; from jax 0.11 a
    reduce's all-reduces take the reduction its body computes (`max`, `min`). With `mark_unreduced`, the result's
    own sharding then holds `axes` unreduced too (with that reduction), as the partial result it is, unless the
    reduction is a mixed body's (an argmax's, all-reduced as a sum). From jax 0.12 a reduce of several inputs with
    a mixed body gets nothing: `sdy-convert-global-to-local` gathers its partial results and reduces them again."""
    reduction = _reduce_body_reduction(op)
    if reduction is None and len(op.results) > 1 and versions.installed().mixed_reduce_left_unreduced:
        return
    with ir.InsertionPoint.after(op):
        for index, result in enumerate(op.results):
            sharding = get_sharding(result) or TensorSharding.fully_closed(mesh_name, result.type.rank)
            reduced = create_all_reduce(result, axes, sharding, reduction or "sum")
            result.replace_all_uses_except(reduced, reduced.owner.operation)
            if mark_unreduced and reduction is not None:
                unreduced = sort_and_merge_axes([*sharding.unreduced, *axes], mesh)
                partial = dataclasses.replace(sharding, unreduced=tuple(unreduced), reduction=reduction)
                set_result_sharding(op, index, partial)


def _reduce_body_reduction(op: ir.Operation) -> Optional[str]:
    """The reduction a reduce's partial results are all-reduced with (`sum` for any other op); None for a reduce
    with a mixed body (an argmax's)."""
    if op.name != "stablehlo.reduce" or not versions.installed().all_reduce_follows_reduce_body:
        return "sum"
    return body_reduction(op.regions[0])


def reduction_axes_needing_all_reduce(
    reduction_axes: list[AxisRef], op: ir.Operation, meshes: MeshTable, mesh_name: str
) -> list[AxisRef]:
    result_sharding = get_sharding(op.results[0])
    unreduced = result_sharding.unreduced if result_sharding is not None else ()
    mesh = meshes.meshes[mesh_name]
    return sort_and_merge_axes(axis_set_diff(reduction_axes, unreduced, mesh), mesh)


def _dropped_axes(in_axes: Sequence[AxisRef], out_axes: Sequence[AxisRef], mesh: Mesh) -> list[AxisRef]:
    """The axes past `out_axes` in `in_axes`, of which `out_axes` must be a strict prefix."""
    dropped = []
    if out_axes and out_axes[-1] != in_axes[len(out_axes) - 1]:
        dropped.append(axis_refs.suffix_without_overlap(in_axes[len(out_axes) - 1], out_axes[-1], mesh))
    dropped.extend(in_axes[len(out_axes):])
    return dropped


def _sharded_to_unreduced_axes(
    in_axes: Sequence[AxisRef], out_axes: Sequence[AxisRef], new_unreduced: Sequence[AxisRef], mesh: Mesh
) -> Optional[list[AxisRef]]:
    """The axes a dimension makes unreduced by dropping them: those of `in_axes` past `out_axes`, if `out_axes` is a
    strict prefix of `in_axes` and every dropped axis becomes unreduced; None otherwise."""
    if not axis_refs.is_strict_prefix(out_axes, in_axes):
        return None
    dropped = _dropped_axes(in_axes, out_axes, mesh)
    return dropped if not axis_set_diff(dropped, new_unreduced, mesh) else None


def to_unreduced(
    value: ir.Value, in_sharding: TensorSharding, out_sharding: TensorSharding, meshes: MeshTable, user: ir.Operation
) -> Optional[tuple[ir.Value, TensorSharding]]:
    """Makes `value` unreduced along the axes `out_sharding` has unreduced and `in_sharding` does not (at the current insertion point).

    As in jaxlib, a dimension keeps its `in_sharding` axes if dropping the
    ones past its `out_sharding` axes makes only new unreduced axes
    (`sdy.sharded_to_unreduced`); every other dimension is first resharded to
    its `out_sharding` axes, by an `sdy.reshard` (unless equivalent) that
    keeps `in_sharding`'s replicated and unreduced axes (which the verifier
    may then reject). The other new unreduced axes go through
    `sdy.replicated_to_unreduced` (first, as it keeps the sharded size). The
    new ops take `value`'s location. Returns the new value and its sharding,
    or None if no axis becomes unreduced. Shardy aborts where the shardings'
    meshes differ, or where `in_sharding` also has unreduced axes `out_sharding`
    does not (only a reshard can get here with those); pysdy reports `user`.
    """
    if not out_sharding.unreduced:
        return None
    _check_same_mesh(in_sharding, out_sharding, meshes, user, "the sharding with unreduced axes has another mesh than its input")
    mesh = meshes.of(in_sharding)
    new_unreduced = axis_set_diff(out_sharding.unreduced, in_sharding.unreduced, mesh)
    if not new_unreduced:
        return None
    if axis_set_diff(in_sharding.unreduced, out_sharding.unreduced, mesh):
        user.location.emit_error("the input and the output both have unreduced axes the other does not have")
        raise PassFailure()
    loc = value.location
    dims, per_dim = [], []
    for in_dim, out_dim in zip(in_sharding.dims, out_sharding.dims):
        dropped = _sharded_to_unreduced_axes(in_dim.axes, out_dim.axes, new_unreduced, mesh)
        dims.append(in_dim if dropped is not None else out_dim)
        per_dim.append(dropped or [])
    sharding = dataclasses.replace(in_sharding, dims=tuple(dims))
    if not is_equivalent(sharding, in_sharding):
        value = create_reshard(value, sharding)
    sharded_to_unreduced = [ref for axes in per_dim for ref in axes]
    replicated_to_unreduced = axis_set_diff(new_unreduced, sharded_to_unreduced, mesh)
    if replicated_to_unreduced:
        unreduced = sort_and_merge_axes(list(in_sharding.unreduced) + replicated_to_unreduced, mesh)
        sharding = TensorSharding(
            in_sharding.mesh, sharding.dims, out_sharding.replicated, tuple(unreduced), out_sharding.reduction
        )
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
    converted = to_unreduced(operand, source, target, meshes, user)
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
        converted = to_unreduced(reshard.operands[0], in_sharding, out_sharding, meshes, reshard)
    if converted is None:
        return False
    reshard.results[0].replace_all_uses_with(converted[0])
    reshard.erase()
    return True
