"""`sdy-lift-inlined-meshes`: replace meshes inlined in shardings and in collectives' replica groups with
`sdy.mesh` symbols, deduplicating meshes.

As jaxlib's C++ does, identical mesh ops become one (every reference renamed), meshes inlined in shardings are
lifted first, reusing an identical mesh op, and then each distinct `#stablehlo.mesh` inlined in replica groups
gets a new mesh op of its own, in walk order.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy import versions
from pysdy.dialects.sdy import Mesh, TensorSharding
from pysdy.passes.common.replica_group_meshes import inlined_mesh_value, replica_group_meshes
from pysdy.passes.common.sharding_walker import transform_shardings
from pysdy.passes.import_.symbols import SymbolTable, symbol_name
from pysdy.passes.registry import OptionSpec, Pass, PassFailure, option, register_pass

EMPTY_MESH_NAME = "empty_mesh"
STABLEHLO_MESH = "stablehlo.mesh"


def _new_mesh_name(mesh: Mesh, single_device_names: bool) -> str:
    if mesh.is_maximal:
        return f"{'single_device' if single_device_names else 'maximal_mesh'}_{mesh.device_ids[0]}"
    if not mesh.axes:
        return EMPTY_MESH_NAME
    return "mesh"


@register_pass
@dataclasses.dataclass(frozen=True)
class LiftInlinedMeshesPass(Pass):
    argument = "sdy-lift-inlined-meshes"
    summary = "Lifts inlined `MeshAttr`s in shardings as symbol `MeshOp`s."

    # jaxlib 0.12 on: name a lifted single-device mesh `single_device_N` rather than `maximal_mesh_N`.
    use_single_device_mesh_names: bool = option(False, "whether to name single-device meshes single_device_<id>")

    @classmethod
    def option_specs(cls) -> list[OptionSpec]:
        specs = super().option_specs()
        if versions.installed().lift_meshes_single_device_names_option:
            return specs
        return [spec for spec in specs if spec.field_name != "use_single_device_mesh_names"]

    def run(self, op: ir.Operation) -> None:
        symbols = SymbolTable(op)
        body = op.regions[0].blocks[0]
        # Mesh (or the name of a deduplicated mesh op) -> name of the mesh op to refer to.
        new_names: dict[Mesh | str, str] = {}
        last_mesh_op = None
        for mesh_op in [o.operation for o in body.operations if o.operation.name == "sdy.mesh"]:
            mesh = Mesh.from_attr(mesh_op.attributes["mesh"])
            if mesh in new_names:
                new_names[symbol_name(mesh_op)] = new_names[mesh]
                symbols.erase(mesh_op)
            else:
                new_names[mesh] = symbol_name(mesh_op)
                last_mesh_op = mesh_op
        if last_mesh_op is None:
            insertion_point = ir.InsertionPoint.at_block_begin(body)
        else:
            insertion_point = ir.InsertionPoint.after(last_mesh_op)

        def lift(sharding: TensorSharding) -> TensorSharding:
            new_name = new_names.get(sharding.mesh)
            if new_name is None and isinstance(sharding.mesh, Mesh):
                name = _new_mesh_name(sharding.mesh, self.use_single_device_mesh_names)
                mesh_op = sdy.MeshOp(name, sharding.mesh.to_attr(), loc=op.location, ip=insertion_point)
                new_name = symbols.insert(mesh_op.operation, name)
                new_names[sharding.mesh] = new_name
            if new_name is None:
                return sharding
            return dataclasses.replace(sharding, mesh=new_name)

        transform_shardings(op, lift)
        self._lift_replica_group_meshes(op, symbols, new_names, insertion_point)
        for mesh_op in body.operations:
            if mesh_op.operation.name == "sdy.mesh" and STABLEHLO_MESH not in mesh_op.attributes:
                mesh_op.attributes[STABLEHLO_MESH] = _stablehlo_mesh(Mesh.from_attr(mesh_op.attributes["mesh"]))

    @staticmethod
    def _lift_replica_group_meshes(
        op: ir.Operation, symbols: SymbolTable, new_names: dict[Mesh | str, str], insertion_point: ir.InsertionPoint
    ) -> None:
        """Renames references to deduplicated mesh ops and lifts each distinct inlined `#stablehlo.mesh` into a
        new mesh op (never an existing one, even an identical one)."""
        lifted: dict[str, str] = {}
        for reference in replica_group_meshes(op):
            if reference.symbol is not None:
                if reference.symbol in new_names:
                    reference.replace_with_symbol(new_names[reference.symbol])
                continue
            name = lifted.get(reference.inlined)
            if name is None:
                try:
                    mesh = inlined_mesh_value(reference)
                except ValueError as error:
                    reference.op.location.emit_error(str(error))
                    raise PassFailure() from None
                mesh_op = sdy.MeshOp("mesh", mesh.to_attr(), loc=op.location, ip=insertion_point)
                name = lifted[reference.inlined] = symbols.insert(mesh_op.operation, "mesh")
            reference.replace_with_symbol(name)


def _stablehlo_mesh(mesh: Mesh) -> ir.Attribute:
    """The `stablehlo.mesh` dictionary mirroring an sdy mesh, which Shardy puts on every mesh op."""
    i64 = ir.IntegerType.get_signless(64)
    axes = [
        ir.DictAttr.get({"name": ir.StringAttr.get(a.name), "size": ir.IntegerAttr.get(i64, a.size)})
        for a in mesh.axes
    ]
    entries = {"axes": ir.ArrayAttr.get(axes)}
    if mesh.device_ids:
        entries["device_ids"] = ir.DenseIntElementsAttr.get(np.array(mesh.device_ids, dtype=np.int64))
    return ir.DictAttr.get(entries)
