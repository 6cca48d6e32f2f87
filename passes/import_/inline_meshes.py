"""`sdy-inline-meshes`: replace mesh names in shardings with the meshes themselves and erase the `sdy.mesh` ops."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding
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
        for mesh_op in [o.operation for o in op.regions[0].blocks[0].operations if o.operation.name == "sdy.mesh"]:
            symbols.erase(mesh_op)
