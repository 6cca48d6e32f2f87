"""`sdy-flatten-call-graph`: give every call after a function's first its own (recursively cloned) callee."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.import_.call_graph import callee_name, clone_func_recursively, set_callee, walk_calls
from pysdy.passes.import_.symbols import SymbolTable
from pysdy.passes.registry import Pass, register_pass


@register_pass
@dataclasses.dataclass(frozen=True)
class FlattenCallGraphPass(Pass):
    argument = "sdy-flatten-call-graph"
    summary = "Flattens the call graph."

    def run(self, op: ir.Operation) -> None:
        symbols = SymbolTable(op)
        called: set[str] = set()
        for call in walk_calls(op, symbols):
            name = callee_name(call)
            if name not in called:
                called.add(name)
                continue
            set_callee(call, clone_func_recursively(symbols.lookup(name), symbols))
