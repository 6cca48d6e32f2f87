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


def nested_ops_by_name(root: ir.Operation, names: Collection[str]) -> dict[str, list[ir.Operation]]:
    """For each of `names`, the ops called that among `root` and the ops nested in it, in post-order; from one walk."""
    found: dict[str, list[ir.Operation]] = {name: [] for name in names}

    def visit(op):
        ops = found.get(op.name)
        if ops is not None:
            ops.append(op.operation)
        return ir.WalkResult.ADVANCE

    root.walk(visit, walk_order=ir.WalkOrder.POST_ORDER)
    return found
