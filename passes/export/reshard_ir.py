"""What the explicit-reshard passes read and build: meshes by symbol, sharding equivalence, and `sdy.reshard` / `sdy.all_reduce` ops."""

from __future__ import annotations

from typing import Optional, Sequence

from jaxlib.mlir import ir

from pysdy.dialects.sdy import AxisRef, Mesh, TensorSharding
from pysdy.passes.propagation import axis_refs


class MeshTable:
    """The `sdy.mesh` symbols of a module."""

    def __init__(self, module: ir.Operation):
        self.meshes: dict[str, Mesh] = {}
        for op in module.regions[0].blocks[0].operations:
            if op.operation.name == "sdy.mesh":
                name = ir.StringAttr(op.operation.attributes["sym_name"]).value
                self.meshes[name] = Mesh.from_attr(op.operation.attributes["mesh"])

    def of(self, sharding: TensorSharding) -> Mesh:
        return sharding.mesh if isinstance(sharding.mesh, Mesh) else self.meshes[sharding.mesh]


def is_empty_mesh(mesh: Mesh) -> bool:
    return not mesh.axes and not mesh.device_ids


def same_mesh(first: Mesh, second: Mesh, ignore_device_ids: bool) -> bool:
    return first.axes == second.axes and (ignore_device_ids or first.device_ids == second.device_ids)


def is_fully_replicated(sharding: Optional[TensorSharding]) -> bool:
    return sharding is None or (not sharding.unreduced and all(not dim.axes for dim in sharding.dims))


def is_equivalent(first: Optional[TensorSharding], second: Optional[TensorSharding]) -> bool:
    """Shardy's `isEquivalent`: the same axes on every dimension and the same unreduced axes, open or closed alike."""
    if first is None or second is None:
        return is_fully_replicated(first) and is_fully_replicated(second)
    if first.mesh != second.mesh:
        return is_fully_replicated(first) and is_fully_replicated(second)
    return first.unreduced == second.unreduced and [d.axes for d in first.dims] == [d.axes for d in second.dims]


def fully_closed_like(sharding: TensorSharding) -> TensorSharding:
    return TensorSharding.fully_closed(sharding.mesh, sharding.rank)


def with_unreduced(sharding: TensorSharding, unreduced: Sequence[AxisRef]) -> TensorSharding:
    return TensorSharding(sharding.mesh, sharding.dims, sharding.replicated, tuple(unreduced))



# --------------------------------------------------------------------------
# Axis sets
# --------------------------------------------------------------------------


def mesh_order_key(ref: AxisRef, mesh: Mesh) -> tuple[int, int, int]:
    """Shardy's mesh comparator: by the axis's position in the mesh, then major sub-axes first."""
    if ref.sub_axis is None:
        return (mesh.axis_index(ref.name), 1, mesh.axis_size(ref.name))
    return (mesh.axis_index(ref.name), ref.sub_axis.pre_size, ref.sub_axis.size)


def sort_and_merge_axes(axes: list[AxisRef], mesh: Mesh) -> list[AxisRef]:
    merged: list[AxisRef] = []
    for ref in sorted(axes, key=lambda r: mesh_order_key(r, mesh)):
        if merged and axis_refs.can_merge(merged[-1], ref):
            merged[-1] = axis_refs.merge(merged[-1], ref, mesh)
        else:
            merged.append(ref)
    return merged


def _minus(ref: AxisRef, removed: AxisRef, mesh: Mesh) -> list[AxisRef]:
    """The parts of `ref` outside `removed` (major part first)."""
    if not axis_refs.overlaps(ref, removed):
        return [ref]
    parts = []
    ref_pre, ref_next = axis_refs.pre_size(ref), axis_refs.next_pre_size_or_full_size(ref, mesh)
    removed_pre, removed_next = axis_refs.pre_size(removed), axis_refs.next_pre_size_or_full_size(removed, mesh)
    full_size = mesh.axis_size(ref.name)
    for pre, nxt in ((ref_pre, min(ref_next, removed_pre)), (max(ref_pre, removed_next), ref_next)):
        if nxt > pre:
            parts.append(
                AxisRef(ref.name) if pre == 1 and nxt == full_size else axis_refs.sub_axis(ref.name, pre, nxt // pre)
            )
    return parts


def axis_set_diff(axes: Sequence[AxisRef], removed: Sequence[AxisRef], mesh: Mesh) -> list[AxisRef]:
    """The (sub-)axes of `axes` not covered by `removed`."""
    result = []
    for ref in axes:
        parts = [ref]
        for other in removed:
            parts = [piece for part in parts for piece in _minus(part, other, mesh)]
        result.extend(parts)
    return result


# --------------------------------------------------------------------------
# Building ops
# --------------------------------------------------------------------------



def create_reshard(value: ir.Value, sharding: TensorSharding) -> ir.Value:
    """An `sdy.reshard` of `value` at the current insertion point."""
    op = ir.Operation.create(
        "sdy.reshard",
        results=[value.type],
        operands=[value],
        attributes={"sharding": sharding.to_attr()},
        loc=value.location,
    )
    return op.results[0]


def axis_list_attr(axes: Sequence[AxisRef]) -> ir.Attribute:
    return ir.Attribute.parse("#sdy<axis_ref_list{" + ", ".join(str(ref) for ref in axes) + "}>")


def create_all_reduce(value: ir.Value, axes: Sequence[AxisRef], sharding: TensorSharding) -> ir.Value:
    op = ir.Operation.create(
        "sdy.all_reduce",
        results=[value.type],
        operands=[value],
        attributes={"reduction_axes": axis_list_attr(axes), "out_sharding": sharding.to_attr()},
        loc=value.location,
    )
    return op.results[0]


