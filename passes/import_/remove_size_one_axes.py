"""`sdy-remove-size-one-axes`: drop mesh axes of size one from every sharding (the meshes keep them)."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import AxisRef, DimSharding, Mesh, TensorSharding
from pysdy.passes.common.sharding_walker import transform_shardings
from pysdy.passes.import_.symbols import SymbolTable, mesh_of
from pysdy.passes.registry import Pass, register_pass


def _without_size_one_axes(sharding: TensorSharding, mesh: Mesh) -> TensorSharding:
    def keep(axes: tuple[AxisRef, ...]) -> tuple[AxisRef, ...]:
        return tuple(a for a in axes if a.size(mesh) != 1)

    dims = []
    for dim in sharding.dims:
        axes = keep(dim.axes)
        # A closed dimension without axes cannot carry a priority.
        priority = None if not axes and dim.is_closed else dim.priority
        dims.append(DimSharding(axes, dim.is_closed, priority))
    return dataclasses.replace(
        sharding, dims=tuple(dims), replicated=keep(sharding.replicated), unreduced=keep(sharding.unreduced)
    )


@register_pass
@dataclasses.dataclass(frozen=True)
class RemoveSizeOneAxesPass(Pass):
    argument = "sdy-remove-size-one-axes"
    summary = "Removes size one axes from shardings."

    def run(self, op: ir.Operation) -> None:
        symbols = SymbolTable(op)
        mesh_ops = [o.operation for o in op.regions[0].blocks[0].operations if o.operation.name == "sdy.mesh"]
        if not any(any(a.size == 1 for a in Mesh.from_attr(m.attributes["mesh"]).axes) for m in mesh_ops):
            return
        transform_shardings(op, lambda sharding: _without_size_one_axes(sharding, mesh_of(sharding, symbols)))
