"""What the explicit-reshard passes read and build: meshes by symbol, sharding equivalence, and `sdy.reshard` / `sdy.all_reduce` ops."""

from __future__ import annotations

import dataclasses
from typing import Optional, Sequence

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import AxisRef, Mesh, TensorSharding
from pysdy.passes.common.reduction_bodies import REDUCTION_OP_VALUES
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

    def global_mesh(self) -> Optional[str]:
        """The first mesh with axes (so neither maximal nor empty): Shardy's global mesh."""
        return next((name for name, mesh in self.meshes.items() if mesh.axes), None)


def is_empty_mesh(mesh: Mesh) -> bool:
    return not mesh.axes and not mesh.device_ids


def same_mesh(first: Mesh, second: Mesh, ignore_device_ids: bool) -> bool:
    return first.axes == second.axes and (ignore_device_ids or first.device_ids == second.device_ids)


def is_fully_replicated(sharding: Optional[TensorSharding]) -> bool:
    """Shardy's `isFullyReplicated`: no dimension is sharded (unreduced axes do not count)."""
    return sharding is None or all(not dim.axes for dim in sharding.dims)


def is_equivalent(first: Optional[TensorSharding], second: Optional[TensorSharding]) -> bool:
    """Shardy's `isEquivalent`: both replicated, or the same mesh name, axes on every dimension and unreduced
    axes, open or closed alike. From jax 0.11 on, unreduced axes make a sharding not replicated, except
    against a missing sharding (Shardy then looks at dimensions only)."""
    if not versions.installed().equivalence_counts_unreduced_axes:
        if first is None or second is None or first.mesh != second.mesh:
            return is_fully_replicated(first) and is_fully_replicated(second)
    elif first is None:
        return is_fully_replicated(second)
    elif _replicated_without_unreduced(first):
        return _replicated_without_unreduced(second)
    elif second is None or first.mesh != second.mesh:
        return False
    return first.unreduced == second.unreduced and [d.axes for d in first.dims] == [d.axes for d in second.dims]


def _replicated_without_unreduced(sharding: Optional[TensorSharding]) -> bool:
    return is_fully_replicated(sharding) and (sharding is None or not sharding.unreduced)


def fully_closed_like(sharding: TensorSharding) -> TensorSharding:
    return TensorSharding.fully_closed(sharding.mesh, sharding.rank)


def with_unreduced(sharding: TensorSharding, unreduced: Sequence[AxisRef]) -> TensorSharding:
    return dataclasses.replace(sharding, unreduced=tuple(unreduced))



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


def axis_set_diff(axes: Sequence[AxisRef], removed: Sequence[AxisRef], mesh: Mesh) -> list[AxisRef]:
    """The (sub-)axes of `axes` not covered by `removed` (Shardy's getAxisSetDiff).

    Each axis loses its overlaps with the axes of `removed` one at a time, the
    first overlapping one in axis order first, keeping the part before it and
    going on with the part after it; an axis overlapping one it cannot coexist
    with (an inconsistent split of the same axis) is dropped whole.
    """
    if not axes or list(axes) == list(removed):
        return []
    ordered = sorted(removed, key=axis_refs.axis_order_key)
    result = []
    for ref in axes:
        rest: Optional[AxisRef] = ref
        while rest is not None:
            index = axis_refs.first_overlapping(rest, ordered)
            if index is None:
                result.append(rest)
                break
            prefix = axis_refs.prefix_without_overlap(rest, ordered[index])
            if prefix is not None:
                result.append(prefix)
            rest = axis_refs.suffix_without_overlap(rest, ordered[index], mesh)
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


def create_all_reduce(
    value: ir.Value, axes: Sequence[AxisRef], sharding: TensorSharding, reduction: str = "sum"
) -> ir.Value:
    """An `sdy.all_reduce` of `value` (`sdy.all_reduce max {...}` for a `max` or `min` reduction)."""
    attributes = {"reduction_axes": axis_list_attr(axes), "out_sharding": sharding.to_attr()}
    if reduction != "sum":
        i32 = ir.IntegerType.get_signless(32)
        attributes["reduction_op"] = ir.IntegerAttr.get(i32, REDUCTION_OP_VALUES[reduction])
    op = ir.Operation.create("sdy.all_reduce", results=[value.type], operands=[value], attributes=attributes, loc=value.location)
    return op.results[0]


