"""The hand-off form: every op's propagated sharding handed to XLA as sharding constraints on its results.

JAX never writes a sharding on an ordinary op: its modules carry shardings on
function arguments and results, on `sdy.sharding_constraint`s and on manual
computations, and XLA's Shardy partitioner propagates the rest after
converting the module to HLO. That conversion, given shardings on ops JAX
never shards, builds invalid HLO shardings: jaxlib 0.12 gives the elements of
an unsharded `stablehlo.optimization_barrier` inside a loop the sharding of
an op using one of them (a remat's residuals under `scan`), and a sharded
`stablehlo.while` whose body returns an argument unchanged loses that element
but keeps its sharding. So each sharded op hands its shardings over as what
JAX writes for `with_sharding_constraint`: the op unsharded, a constraint to
its sharding on each used result. XLA's propagation starts from the
constraints and finds pysdy's shardings again; none is dropped.

The gspmd route moves only the shardings of `stablehlo.optimization_barrier`s
before XLA's export (`only_on`): that export writes the constraints as
sharded copies, and the translation's one sharding per barrier is what goes
wrong there. Every other op keeps its sharding, so XLA's GSPMD propagation has
nothing left to choose: given constraints alone, it chose differently from
pysdy (more collective bytes, and a partitioned FFT that XLA's CPU runtime
rejects).

Kept on the op: a sharding on a mesh without axes (a maximal one, JAX's own
for host callbacks, which places the op itself on a device); a sharding with
unreduced axes, which says the op itself leaves partial results (unreduced
axes do not propagate: from a constraint the op would reduce them first, and
XLA's GSPMD partitioner aborts on an unreduced `@Sharding` call); and the
shardings of an op with a result that is not a ranked tensor (a token), which
a constraint cannot carry.
"""

from __future__ import annotations

from collections.abc import Collection

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.dialects.sdy import TensorShardingPerValue
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.export.reshard_ir import MeshTable

SHARDING = "sdy.sharding"


def shardings_as_constraints(module: ir.Module, only_on: Collection[str] | None = None) -> None:
    """Moves each op's `sdy.sharding` onto constraints after it (see the module docstring); with `only_on`, only
    those of the ops it names."""
    meshes = MeshTable(module.operation)
    for op in nested_ops(module.operation):
        if only_on is not None and op.name not in only_on:
            continue
        if SHARDING not in op.attributes or not _may_move(op, meshes):
            continue
        shardings = sdy.TensorShardingPerValueAttr(op.attributes[SHARDING]).shardings
        del op.attributes[SHARDING]
        for result, sharding in reversed(list(zip(op.results, shardings))):
            if not list(result.uses):
                continue
            with ir.InsertionPoint(op):
                constraint = sdy.ShardingConstraintOp(result, sharding, loc=op.location)
            constraint.operation.move_after(op)  # constraints follow the op in result order
            result.replace_all_uses_except(constraint.result, constraint.operation)


def _may_move(op: ir.Operation, meshes: MeshTable) -> bool:
    if op.name == "func.func" or not all(isinstance(r.type, ir.RankedTensorType) for r in op.results):
        return False
    per_value = TensorShardingPerValue.from_attr(op.attributes[SHARDING])
    return all(meshes.of(sharding).axes and not sharding.unreduced for sharding in per_value.shardings)
