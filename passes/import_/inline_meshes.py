"""`sdy-inline-meshes`: replace mesh names in shardings with the meshes themselves and erase the `sdy.mesh` ops."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import Mesh, TensorSharding
from pysdy.passes.common.replica_group_meshes import replica_group_meshes
from pysdy.passes.common.sharding_walker import transform_shardings
from pysdy.passes.import_.symbols import SymbolTable, mesh_of
from pysdy.passes.registry import Pass, register_pass


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
            # Collectives' replica groups naming an `sdy.mesh` get that mesh (not its `stablehlo.mesh` attribute).
            for reference in replica_group_meshes(op):
                mesh_op = None if reference.symbol is None else symbols.lookup(reference.symbol)
                if mesh_op is not None and mesh_op.name == "sdy.mesh":
                    reference.replace_with_inlined(Mesh.from_attr(mesh_op.attributes["mesh"]))
        for mesh_op in [o.operation for o in op.regions[0].blocks[0].operations if o.operation.name == "sdy.mesh"]:
            symbols.erase(mesh_op)
