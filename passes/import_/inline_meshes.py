"""`sdy-inline-meshes`: replace mesh names in shardings with the meshes themselves and erase the `sdy.mesh` ops."""

from __future__ import annotations

import dataclasses

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from pysdy import versions
from pysdy.dialects.sdy import Mesh, TensorSharding
from pysdy.passes.common.sharding_walker import transform_shardings
from pysdy.passes.import_.symbols import SymbolTable, mesh_of
from pysdy.passes.registry import Pass, register_pass


# The attribute of StableHLO's collectives that may name a mesh (`#stablehlo.replica_group_mesh_axes<mesh = @m, ...>`).
REPLICA_GROUPS = "replica_groups"


@register_pass
@dataclasses.dataclass(frozen=True)
class InlineMeshesPass(Pass):
    argument = "sdy-inline-meshes"
    summary = "Inlines `MeshAttr`s into `TensorShardingAttr`s."

    def run(self, op: ir.Operation) -> None:
        symbols = SymbolTable(op)

        def inline(sharding: TensorSharding) -> TensorSharding:
            return dataclasses.replace(sharding, mesh=mesh_of(sharding, symbols))

        transform_shardings(op, inline)
        if versions.installed().inline_meshes_into_replica_groups:
            _inline_replica_group_meshes(op, symbols)
        for mesh_op in [o.operation for o in op.regions[0].blocks[0].operations if o.operation.name == "sdy.mesh"]:
            symbols.erase(mesh_op)


def _inline_replica_group_meshes(module: ir.Operation, symbols: SymbolTable) -> None:
    """Replaces each `replica_group_mesh_axes` attribute's mesh name by that `sdy.mesh`'s mesh, as a StableHLO mesh."""

    def visit(op: ir.Operation) -> ir.WalkResult:
        if REPLICA_GROUPS not in op.attributes:
            return ir.WalkResult.ADVANCE
        attr = op.attributes[REPLICA_GROUPS]
        if not stablehlo.ReplicaGroupMeshAxesAttr.isinstance(attr):
            return ir.WalkResult.ADVANCE
        groups = stablehlo.ReplicaGroupMeshAxesAttr(attr)
        mesh_op = symbols.lookup(groups.mesh.value) if isinstance(groups.mesh, ir.FlatSymbolRefAttr) else None
        if mesh_op is not None and mesh_op.name == "sdy.mesh":
            mesh = _stablehlo_mesh(Mesh.from_attr(mesh_op.attributes["mesh"]))
            op.attributes[REPLICA_GROUPS] = stablehlo.ReplicaGroupMeshAxesAttr.get(mesh, groups.axes)
        return ir.WalkResult.ADVANCE

    module.walk(visit)


def _stablehlo_mesh(mesh: Mesh) -> ir.Attribute:
    axes = ir.ArrayAttr.get([stablehlo.MeshAxisAttr.get(axis.name, axis.size) for axis in mesh.axes])
    device_ids = ir.DenseElementsAttr.get(np.array(mesh.device_ids, dtype=np.int64)) if mesh.device_ids else None
    return stablehlo.MeshAttr.get(axes, device_ids)
