"""StableHLO collectives whose devices are named by mesh axes (ReplicaGroupV3) rewritten with the device lists they
stand for, which jaxlib's XLA reads.

JAX 0.12 lowers a `psum` in a shard_map with mesh-axes groups, and
`sdy-convert-global-to-local` keeps the manual body as it is; XLA's own
Shardy route turns such groups into device lists before partitioning, and a
per-device program handed straight to XLA needs the same. The groups are
those Shardy gives a collective over the same axes of the same mesh
(passes/gspmd/replica_groups.py).
"""

from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from pysdy.dialects.sdy import AxisRef, Mesh, MeshAxis
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.export.reshard_ir import MeshTable
from pysdy.passes.gspmd.replica_groups import replica_groups


def with_device_list_groups(module: ir.Operation) -> None:
    meshes = MeshTable(module)
    for op in nested_ops(module):
        if "replica_groups" not in op.attributes:
            continue
        groups = op.attributes["replica_groups"]
        if not stablehlo.ReplicaGroupMeshAxesAttr.isinstance(groups):
            continue
        groups = stablehlo.ReplicaGroupMeshAxesAttr(groups)
        axes = [AxisRef.from_stablehlo_attr(ref) for ref in groups.axes]
        op.attributes["replica_groups"] = ir.DenseElementsAttr.get(replica_groups(axes, _mesh(groups.mesh, meshes)))


def _mesh(attr: ir.Attribute, meshes: MeshTable) -> Mesh:
    try:
        return meshes.meshes[ir.FlatSymbolRefAttr(attr).value]
    except ValueError:  # not a symbol
        pass
    if stablehlo.MeshAttr.isinstance(attr):
        mesh = stablehlo.MeshAttr(attr)
        axes = tuple(MeshAxis(axis.name, axis.size) for axis in map(stablehlo.MeshAxisAttr, mesh.axes))
        device_ids = mesh.device_ids
        return Mesh(axes, tuple(int(i) for i in device_ids) if device_ids is not None else ())
    return Mesh.from_attr(attr)
