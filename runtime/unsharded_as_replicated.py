"""The gspmd route's last word on unsharded ops: an op Shardy's propagation leaves unsharded is replicated, and XLA's
GSPMD partitioner is told so.

XLA's own Shardy flow hands its partitioner every op as Shardy left it, an
unsharded one replicated. Its GSPMD route instead runs GSPMD's propagation
first, which gives each op without a sharding one of its own choosing: it
split a batch norm's channel statistics over the batch axis of the
activations they are broadcast back into, and gathered them again. So before
XLA's export each such op gets a replicated sharding. Left alone: ops in a
manual computation (whose values are per device), sdy ops and functions (which
carry their own shardings), optimization barriers (whose shardings travel as
constraints, shardings_as_constraints.py), ops whose results are not all
ranked tensors (a token), and every op of a module without a mesh with axes.
"""

from __future__ import annotations

from collections.abc import Collection

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.manual_axes import enclosing_manual_computation
from pysdy.passes.export.reshard_ir import MeshTable

SHARDING = "sdy.sharding"


def replicate_unsharded(module: ir.Module, skipped: Collection[str] = ()) -> None:
    """Gives each op left unsharded (see the module docstring), but those named in `skipped`, a replicated
    `sdy.sharding` on the module's first mesh with axes."""
    mesh = MeshTable(module.operation).global_mesh()
    if mesh is None:
        return
    for op in nested_ops(module.operation):
        if op.name in skipped or not _is_unsharded(op):
            continue
        replicated = tuple(TensorSharding.fully_closed(mesh, result.type.rank) for result in op.results)
        op.attributes[SHARDING] = TensorShardingPerValue(replicated).to_attr()


def _is_unsharded(op: ir.Operation) -> bool:
    if SHARDING in op.attributes or not op.results or op.name.startswith(("sdy.", "func.")):
        return False
    if not all(isinstance(result.type, ir.RankedTensorType) for result in op.results):
        return False
    return enclosing_manual_computation(op) is None
