"""The reduction a region computes (a reduce's or a collective's body): `sum`, `max` or `min`, as Shardy reads it
and writes it."""

from __future__ import annotations

from jaxlib.mlir import ir

# The reduction a body computes, by the op its return operands come from.
_BODY_REDUCTIONS = {"stablehlo.add": "sum", "stablehlo.maximum": "max", "stablehlo.minimum": "min"}
_REDUCTION_BODY_OPS = {kind: name for name, kind in _BODY_REDUCTIONS.items()}
# `sdy.all_reduce`'s `reduction_op` enum values.
REDUCTION_OP_VALUES = {"sum": 0, "max": 1, "min": 2}


def body_reduction(region: ir.Region) -> str | None:
    """`sum`, `max` or `min` when every value the body returns comes from that one op; else None."""
    if not region.blocks:
        return None
    terminator = list(region.blocks[0].operations)[-1]
    if terminator.name != "stablehlo.return" or not terminator.operands:
        return None
    kinds = set()
    for value in terminator.operands:
        if not isinstance(value, ir.OpResult) or value.owner.name not in _BODY_REDUCTIONS:
            return None
        kinds.add(_BODY_REDUCTIONS[value.owner.name])
    return kinds.pop() if len(kinds) == 1 else None


def build_reduction_body(region: ir.Region, element: ir.Type, kind: str) -> None:
    """Fills a collective's empty `region` with the body reducing two `element` scalars by `kind`, at the current
    location."""
    scalar = ir.RankedTensorType.get([], element)
    block = region.blocks.append(scalar, scalar, arg_locs=[ir.Location.current] * 2)
    with ir.InsertionPoint(block):
        reduced = ir.Operation.create(_REDUCTION_BODY_OPS[kind], results=[scalar], operands=list(block.arguments))
        ir.Operation.create("stablehlo.return", operands=[reduced.results[0]])
