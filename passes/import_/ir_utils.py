"""Small IR helpers the import passes share: walk snapshots, insertion points, value locations."""

from __future__ import annotations

from jaxlib.mlir import ir


def ops_in_walk_order(root: ir.Operation, pre_order: bool = False) -> list[ir.Operation]:
    """A snapshot of `root` and every op nested in it, in MLIR's walk order (post-order by default)."""
    found: list[ir.Operation] = []

    def visit(op):
        found.append(op.operation)
        return ir.WalkResult.ADVANCE

    root.walk(visit, walk_order=ir.WalkOrder.PRE_ORDER if pre_order else ir.WalkOrder.POST_ORDER)
    return found


def insertion_point_after(op: ir.Operation) -> ir.InsertionPoint:
    operations = list(op.block.operations)
    index = next(i for i, o in enumerate(operations) if o.operation == op)
    if index + 1 < len(operations):
        return ir.InsertionPoint(operations[index + 1])
    return ir.InsertionPoint(op.block)


def insertion_point_after_value(value: ir.Value) -> ir.InsertionPoint:
    """Right after the op defining `value`, or at the start of the block `value` is an argument of."""
    if isinstance(value, ir.OpResult):
        return insertion_point_after(value.owner.operation)
    return ir.InsertionPoint.at_block_begin(value.owner)


def location_of(value: ir.Value) -> ir.Location:
    if isinstance(value, ir.OpResult):
        return value.owner.location
    return value.location
