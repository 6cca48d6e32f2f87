"""Meshes whose device order mirrors another's along some axes, as `sdy-resolve-permutation-factors` makes them for a
sharded `stablehlo.reverse`: the device at each position is the one at the mirrored position of the original mesh."""

from __future__ import annotations

from typing import Sequence

from jaxlib.mlir import ir

from pysdy.dialects.sdy import AxisRef, Mesh


def mirrored_mesh(mesh: Mesh, axes: Sequence[AxisRef]) -> Mesh:
    """`mesh` with its device order mirrored along each of `axes` (an axis or a sub-axis); iota order is written as none."""
    devices = mesh.device_ids or tuple(range(mesh.total_size))
    strides = _position_strides(mesh)
    mirrored = []
    for position in range(mesh.total_size):
        source = position
        for ref in axes:
            full_size = mesh.axis_size(ref.name)
            size = ref.size(mesh)
            pre_size = ref.sub_axis.pre_size if ref.sub_axis is not None else 1
            stride = strides[ref.name] * (full_size // (pre_size * size))
            coordinate = (source // stride) % size
            source += (size - 1 - 2 * coordinate) * stride
        mirrored.append(devices[source])
    device_ids = tuple(mirrored)
    return Mesh(mesh.axes, () if device_ids == tuple(range(mesh.total_size)) else device_ids)


def _position_strides(mesh: Mesh) -> dict[str, int]:
    """How far apart in device position two neighbours along each axis are (the product of the minor axes' sizes)."""
    strides, stride = {}, 1
    for axis in reversed(mesh.axes):
        strides[axis.name] = stride
        stride *= axis.size
    return strides


class MeshSymbols:
    """The module's `sdy.mesh` symbols by mesh (the last of equal ones), adding a new symbol for a mesh it lacks.

    A new symbol goes first in the module, named as asked or, where that name is taken, with the lowest free
    `_<n>` suffix from a counter shared by the whole run (as MLIR's symbol table renames).
    """

    def __init__(self, module: ir.Operation):
        self._module = module
        self._by_mesh: dict[Mesh, str] = {}
        self._names: set[str] = set()
        self._counter = 0
        for op in module.regions[0].blocks[0].operations:
            if "sym_name" in op.operation.attributes:
                self._names.add(ir.StringAttr(op.operation.attributes["sym_name"]).value)
            if op.operation.name == "sdy.mesh":
                mesh = Mesh.from_attr(op.operation.attributes["mesh"])
                self._by_mesh[mesh] = ir.StringAttr(op.operation.attributes["sym_name"]).value

    def get_or_create(self, mesh: Mesh, name: str, location: ir.Location) -> str:
        existing = self._by_mesh.get(mesh)
        if existing is not None:
            return existing
        unique = name
        while unique in self._names:
            unique = f"{name}_{self._counter}"
            self._counter += 1
        body = self._module.regions[0].blocks[0]
        with ir.InsertionPoint.at_block_begin(body):
            ir.Operation.create(
                "sdy.mesh",
                attributes={"sym_name": ir.StringAttr.get(unique), "mesh": mesh.to_attr()},
                loc=location,
            )
        self._names.add(unique)
        self._by_mesh[mesh] = unique
        return unique
