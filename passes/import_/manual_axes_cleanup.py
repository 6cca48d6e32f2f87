"""`sdy-manual-axes-cleanup`: sort each manual computation's manual axes in mesh order and make every in/out
sharding cover all of them (the parts it doesn't use become replicated)."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import AxisRef, ManualAxes, Mesh, SubAxisInfo, TensorSharding, TensorShardingPerValue
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.import_.symbols import SymbolTable, mesh_of
from pysdy.passes.registry import Pass, PassFailure, register_pass


def axis_order_key(axis: AxisRef, mesh: Mesh) -> tuple[int, int, int]:
    """Sort key of Shardy's mesh order on axis refs: mesh axis position, then sub-axis pre-size and size."""
    if axis.sub_axis is None:
        return (mesh.axis_index(axis.name), 1, mesh.axis_size(axis.name))
    return (mesh.axis_index(axis.name), axis.sub_axis.pre_size, axis.sub_axis.size)


def _axis_refs(sharding: TensorSharding) -> list[AxisRef]:
    return [a for dim in sharding.dims for a in dim.axes] + list(sharding.replicated) + list(sharding.unreduced)


def _unused_parts(axis: str, used: list[AxisRef], mesh: Mesh) -> list[AxisRef]:
    """The parts of mesh axis `axis` that no axis ref in `used` covers, as the full axis or sub-axes."""
    size = mesh.axis_size(axis)
    covered = sorted(
        (ref.sub_axis.pre_size, ref.sub_axis.next_pre_size) if ref.sub_axis else (1, size)
        for ref in used
        if ref.name == axis
    )
    if not covered:
        return [AxisRef(axis)]
    parts, start = [], 1
    for low, high in covered + [(size, size)]:
        if low > start:
            parts.append(AxisRef(axis, SubAxisInfo(start, low // start)))
        start = max(start, high)
    return parts


def _merge_consecutive(axes: list[AxisRef], mesh: Mesh) -> tuple[AxisRef, ...]:
    """Sorted axis refs with each run of adjacent sub-axes of one axis merged (into the full axis if whole)."""
    merged: list[AxisRef] = []
    for axis in axes:
        previous = merged[-1] if merged else None
        if (
            previous is not None
            and previous.name == axis.name
            and previous.sub_axis is not None
            and axis.sub_axis is not None
            and previous.sub_axis.next_pre_size == axis.sub_axis.pre_size
        ):
            info = SubAxisInfo(previous.sub_axis.pre_size, previous.sub_axis.size * axis.sub_axis.size)
            whole = info.pre_size == 1 and info.size == mesh.axis_size(axis.name)
            merged[-1] = AxisRef(axis.name, None if whole else info)
        else:
            merged.append(axis)
    return tuple(merged)


def _common_mesh(shardings: list[TensorSharding], symbols: SymbolTable):
    """The mesh (or mesh name) the shardings share: the first that is not empty, as written there."""
    for sharding in shardings:
        if not mesh_of(sharding, symbols).is_empty:
            return sharding.mesh
    return shardings[0].mesh


def _with_all_manual_axes(
    shardings: list[TensorSharding],
    types: list[ir.Type],
    manual_axes: tuple[str, ...],
    common_mesh,
    mesh: Mesh,
) -> list[TensorSharding] | None:
    """The shardings with unused manual axes added as replicated, or None when none needed it.

    A sharding that gains axes is written on the computation's common mesh as that names it (the symbol,
    or the inlined mesh), whichever way the sharding named its own.
    """
    new_shardings, modified = [], False
    for sharding, type_ in zip(shardings, types):
        unused = [part for axis in manual_axes for part in _unused_parts(axis, _axis_refs(sharding), mesh)]
        if not isinstance(type_, ir.ShapedType) or not unused:
            new_shardings.append(sharding)
            continue
        replicated = sorted(sharding.replicated + tuple(unused), key=lambda a: axis_order_key(a, mesh))
        replicated = _merge_consecutive(replicated, mesh)
        new_shardings.append(dataclasses.replace(sharding, mesh=common_mesh, replicated=replicated))
        modified = True
    return new_shardings if modified else None


@register_pass
@dataclasses.dataclass(frozen=True)
class ManualAxesCleanupPass(Pass):
    argument = "sdy-manual-axes-cleanup"
    summary = "Cleans up the use of manual axes in `ManualComputationOp`s"

    def run(self, op: ir.Operation) -> None:
        symbols = SymbolTable(op)
        for manual in nested_ops(op, name="sdy.manual_computation"):
            self._clean_up(manual, symbols)

    def _clean_up(self, op: ir.Operation, symbols: SymbolTable) -> None:
        in_shardings = list(TensorShardingPerValue.from_attr(op.attributes["in_shardings"]).shardings)
        out_shardings = list(TensorShardingPerValue.from_attr(op.attributes["out_shardings"]).shardings)
        manual_axes = ManualAxes.from_attr(op.attributes["manual_axes"]).axes
        if not in_shardings and not out_shardings:
            if manual_axes and len(list(op.regions[0].blocks[0].operations)) > 1:
                op.location.emit_error(
                    "op has manual_axes when there are no in/out shardings and the body is not empty. "
                    "This isn't allowed at this stage, please contact the Shardy team or file a bug."
                )
                raise PassFailure()
            return
        common_mesh = _common_mesh(in_shardings + out_shardings, symbols)
        mesh = mesh_of(TensorSharding(common_mesh, ()), symbols)
        sorted_axes = tuple(sorted(manual_axes, key=mesh.axis_index))
        if sorted_axes != manual_axes:
            op.attributes["manual_axes"] = ManualAxes(sorted_axes).to_attr()
        for name, shardings, types in (
            ("in_shardings", in_shardings, [v.type for v in op.operands]),
            ("out_shardings", out_shardings, [v.type for v in op.results]),
        ):
            new = _with_all_manual_axes(shardings, types, sorted_axes, common_mesh, mesh)
            if new is not None:
                op.attributes[name] = TensorShardingPerValue(tuple(new)).to_attr()
