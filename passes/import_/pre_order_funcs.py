"""`sdy-pre-order-funcs`: reorder the module's functions so callers come before callees."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.import_.call_graph import post_order_all
from pysdy.passes.import_.symbols import SymbolTable
from pysdy.passes.registry import Pass, register_pass


@register_pass
@dataclasses.dataclass(frozen=True)
class PreOrderFuncsPass(Pass):
    argument = "sdy-pre-order-funcs"
    summary = "Reorders functions in the module in pre-order of the call graph."

    def run(self, op: ir.Operation) -> None:
        block = op.regions[0].blocks[0]
        for func in reversed(post_order_all(op, SymbolTable(op))):
            func.move_after(block.operations[len(block.operations) - 1].operation)
