"""The mesh a collective's `replica_groups = #stablehlo.replica_group_mesh_axes<mesh = ..., axes = [...]>` names
(JAX 0.11+ lowers `psum` and friends this way): a mesh symbol or an inlined `#stablehlo.mesh`.

The attribute is read and rewritten through its printed text, which is the same in jaxlib 0.10.2, 0.11 and 0.12
(JAX 0.10 itself lowers replica groups as device lists); an inlined mesh is built through the bindings.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Iterator

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from pysdy.dialects.sdy import Mesh, MeshAxis

REPLICA_GROUPS = "replica_groups"
_PREFIX = "#stablehlo.replica_group_mesh_axes<mesh = "
_INLINED_MESH = "#stablehlo.mesh<"
_MESH_AXIS = re.compile(r'name = "((?:[^"\\]|\\.)*)", size = (\d+)')


@dataclasses.dataclass(frozen=True)
class ReplicaGroupMesh:
    """The mesh part of one op's `replica_groups`: `symbol` (a mesh name) or `inlined` (the `#stablehlo.mesh` text)."""

    op: ir.Operation
    symbol: str | None
    inlined: str | None
    _before: str
    _after: str

    def replace_with_symbol(self, name: str) -> None:
        """Makes the op's `replica_groups` name mesh `name`."""
        self._replace_mesh_text(f"@{_symbol_text(name)}")

    def _replace_mesh_text(self, mesh_text: str) -> None:
        text = f"{self._before}{mesh_text}{self._after}"
        self.op.attributes[REPLICA_GROUPS] = ir.Attribute.parse(text, context=self.op.context)

    def replace_with_inlined(self, mesh: Mesh) -> None:
        """Makes the op's `replica_groups` hold `mesh` itself, as a `#stablehlo.mesh` (built through the bindings:
        the text of a mesh without axes does not parse)."""
        with self.op.context:
            axes = ir.ArrayAttr.get([stablehlo.MeshAxisAttr.get(axis.name, axis.size) for axis in mesh.axes])
            ids = np.array(mesh.device_ids, dtype=np.int64)
            device_ids = ir.DenseElementsAttr.get(ids) if mesh.device_ids else None
            groups = stablehlo.ReplicaGroupMeshAxesAttr(self.op.attributes[REPLICA_GROUPS])
            self.op.attributes[REPLICA_GROUPS] = stablehlo.ReplicaGroupMeshAxesAttr.get(
                stablehlo.MeshAttr.get(axes, device_ids), groups.axes
            )


def replica_group_meshes(root: ir.Operation) -> Iterator[ReplicaGroupMesh]:
    """Every op nested in `root` whose `replica_groups` names a mesh, in MLIR's (post-order) walk order."""
    found: list[ReplicaGroupMesh] = []

    def visit(op):
        attributes = op.operation.attributes
        if REPLICA_GROUPS in attributes:
            parsed = _parse(op.operation, str(attributes[REPLICA_GROUPS]))
            if parsed is not None:
                found.append(parsed)
        return ir.WalkResult.ADVANCE

    root.walk(visit)
    return iter(found)


def inlined_mesh_value(reference: ReplicaGroupMesh) -> Mesh:
    """The sdy mesh an inlined `#stablehlo.mesh` describes; raises ValueError for one with a device order,
    which jaxlib's C++ lifts without its device order."""
    text = reference.inlined
    if "device_ids" in text:
        raise ValueError(f"an inlined {text} with device ids cannot be lifted without losing its device order")
    return Mesh(tuple(MeshAxis(_unescape(name), int(size)) for name, size in _MESH_AXIS.findall(text)))


def _parse(op: ir.Operation, text: str) -> ReplicaGroupMesh | None:
    if not text.startswith(_PREFIX):
        return None
    start = len(_PREFIX)
    if text.startswith("@", start):
        end = _symbol_end(text, start + 1)
        symbol = _unescape(text[start + 2 : end - 1]) if text[start + 1] == '"' else text[start + 1 : end]
        return ReplicaGroupMesh(op, symbol, None, text[:start], text[end:])
    if text.startswith(_INLINED_MESH, start):
        end = _angle_end(text, start + len(_INLINED_MESH))
        return ReplicaGroupMesh(op, None, text[start:end], text[:start], text[end:])
    return None


def _symbol_end(text: str, i: int) -> int:
    """The index after the symbol name starting at `i` (bare, or quoted with escapes)."""
    if text[i] == '"':
        i += 1
        while text[i] != '"':
            i += 2 if text[i] == "\\" else 1
        return i + 1
    while text[i] not in ",>":
        i += 1
    return i


def _angle_end(text: str, i: int) -> int:
    """The index after the `>` closing the `<` just before `i`, skipping quoted strings."""
    depth = 1
    while depth:
        char = text[i]
        if char == '"':
            i = _symbol_end(text, i) - 1
        elif char == "<":
            depth += 1
        elif char == ">":
            depth -= 1
        i += 1
    return i


def _symbol_text(name: str) -> str:
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", name):
        return name
    return '"' + _escape(name) + '"'


def _escape(name: str) -> str:
    return name.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)
