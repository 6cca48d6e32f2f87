"""Broadcasts that expand size-1 dimensions, split before the GSPMD hand-off so that XLA's HLO translation keeps their shardings.

HLO's broadcast cannot stretch a dimension of size 1, so jaxlib's translation
of such a `stablehlo.broadcast_in_dim` makes three instructions: a broadcast of
the operand to itself carrying the result's sharding (a size-1 dimension then
"sharded" over the axes of the stretched one), a reshape dropping the size-1
dimensions, and the real broadcast. XLA's own Shardy route propagates again
after that translation and shards the pieces well; the GSPMD route gets them
as translated, and its partitioner pads, permutes and all-reduces the operand
(`lax.scan` over layers: 96 more bytes per device and step than XLA's route).
Split here, the reshape keeps the operand's sharding on the dimensions it
keeps and the broadcast has none to stretch.
"""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding
from pysdy.passes.common.ir_walk import nested_ops_named
from pysdy.passes.common.value_shardings import get_sharding, set_result_sharding


def _kept_dims(sharding: TensorSharding, kept: list[int]) -> TensorSharding:
    """The sharding of the kept dimensions; a maximal sharding (no dimensions) as it is."""
    if not sharding.dims:
        return sharding
    return TensorSharding(
        sharding.mesh, tuple(sharding.dims[d] for d in kept), sharding.replicated, sharding.unreduced, sharding.reduction
    )


def _unstretched_source(operand: ir.Value, kept: list[int]) -> ir.Value | None:
    """The value `operand` broadcasts into exactly the kept dimensions (a broadcast_in_dim that only adds the
    size-1 ones), which the reshape would give back: jaxlib's compile folds that reshape and then fails to
    translate the module ("Failed to get shape")."""
    if not isinstance(operand, ir.OpResult) or operand.owner.name != "stablehlo.broadcast_in_dim":
        return None
    source = operand.owner.operands[0]
    if list(ir.DenseI64ArrayAttr(operand.owner.attributes["broadcast_dimensions"])) != kept:
        return None
    shape = ir.RankedTensorType(operand.type).shape
    return source if ir.RankedTensorType(source.type).shape == [shape[i] for i in kept] else None


def split_expanding_broadcasts(module: ir.Module) -> None:
    """Rewrites each broadcast_in_dim that stretches size-1 operand dimensions as a reshape dropping them, sharded
    like the operand on the others, and a broadcast_in_dim of that, sharded like the original."""
    for op in nested_ops_named(module.operation, {"stablehlo.broadcast_in_dim"}):
        operand = op.operands[0]
        operand_shape = ir.RankedTensorType(operand.type).shape
        result_type = ir.RankedTensorType(op.results[0].type)
        dims = list(ir.DenseI64ArrayAttr(op.attributes["broadcast_dimensions"]))
        kept = [i for i, d in enumerate(dims) if operand_shape[i] != 1 or result_type.shape[d] == 1]
        if len(kept) == len(dims):
            continue
        source = _unstretched_source(operand, kept)
        with ir.InsertionPoint(op), op.location:
            if source is None:
                reshape = ir.Operation.create(
                    "stablehlo.reshape",
                    results=[ir.RankedTensorType.get([operand_shape[i] for i in kept], result_type.element_type)],
                    operands=[operand],
                )
                source = reshape.results[0]
                sharding = get_sharding(operand)
                if sharding is not None:
                    set_result_sharding(reshape, 0, _kept_dims(sharding, kept))
            attributes = {name: op.attributes[name] for name in op.attributes}
            attributes["broadcast_dimensions"] = ir.DenseI64ArrayAttr.get([dims[i] for i in kept])
            broadcast = ir.Operation.create(
                "stablehlo.broadcast_in_dim", results=[result_type], operands=[source], attributes=attributes
            )
        op.results[0].replace_all_uses_with(broadcast.results[0])
        op.erase()
