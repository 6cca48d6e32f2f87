"""Snapshots of an op's nested ops in walk order, so passes can change or erase ops while going through them."""

from __future__ import annotations

from collections.abc import Collection

from jaxlib.mlir import ir


def nested_ops(root: ir.Operation, pre_order: bool = False, name: str | None = None) -> list[ir.Operation]:
    """`root` and every op nested in it, in MLIR's walk order (post-order by default); only ops called `name` if given."""
    found: list[ir.Operation] = []

    def visit(op):
        if name is None or op.name == name:
            found.append(op.operation)
        return ir.WalkResult.ADVANCE

    root.walk(visit, walk_order=ir.WalkOrder.PRE_ORDER if pre_order else ir.WalkOrder.POST_ORDER)
    return found


def nested_ops_named(root: ir.Operation, names: Collection[str], pre_order: bool = False) -> list[ir.Operation]:
    """The ops called one of `names` among `root` and the ops nested in it, in walk order (post-order by default)."""
    found: list[ir.Operation] = []

    def visit(op):
        if op.name in names:
            found.append(op.operation)
        return ir.WalkResult.ADVANCE

    root.walk(visit, walk_order=ir.WalkOrder.PRE_ORDER if pre_order else ir.WalkOrder.POST_ORDER)
    return found
