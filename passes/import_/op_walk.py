"""The ops of a few kinds nested in an op, in post-order, found with one walk that keeps only those."""

from __future__ import annotations

from collections.abc import Container

from jaxlib.mlir import ir


def ops_named(root: ir.Operation, names: Container[str]) -> list[ir.Operation]:
    """`root` and the ops nested in it whose name is in `names`, in MLIR's (post-order) walk order."""
    found: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name in names:
            found.append(op)
        return ir.WalkResult.ADVANCE

    root.walk(visit)
    return found
