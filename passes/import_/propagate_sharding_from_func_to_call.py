"""`sdy-propagate-sharding-from-func-to-call`: give calls without result shardings their callee's result shardings."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.import_.call_graph import callee_name
from pysdy.passes.import_.ir_utils import ops_in_walk_order
from pysdy.passes.import_.shardings import SHARDING, func_attr, rank
from pysdy.passes.import_.symbols import SymbolTable, mesh_of
from pysdy.passes.registry import Pass, register_pass


def func_shardings(
    func: ir.Operation, key: str, values: list[ir.Value], symbols: SymbolTable
) -> TensorShardingPerValue | None:
    """The argument (`key="arg_attrs"`) or result (`"res_attrs"`) shardings of `func`, missing ones fully open
    on the first non-maximal mesh among them; None when there is no such mesh."""
    shardings = [func_attr(func, key, index) for index in range(len(values))]
    shardings = [None if s is None else TensorSharding.from_attr(s) for s in shardings]
    mesh = next((s.mesh for s in shardings if s is not None and not mesh_of(s, symbols).is_maximal), None)
    if mesh is None:
        return None
    return TensorShardingPerValue(
        tuple(s if s is not None else TensorSharding.fully_open(mesh, rank(v)) for s, v in zip(shardings, values))
    )


@register_pass
@dataclasses.dataclass(frozen=True)
class PropagateShardingFromFuncToCallPass(Pass):
    argument = "sdy-propagate-sharding-from-func-to-call"
    summary = "Set call result shardings as the func result shardings, if empty."

    def run(self, op: ir.Operation) -> None:
        symbols = SymbolTable(op)
        for call in ops_in_walk_order(op):
            if call.name != "func.call" or SHARDING in call.attributes:
                continue
            shardings = func_shardings(symbols.lookup(callee_name(call)), "res_attrs", list(call.results), symbols)
            if shardings is not None:
                call.attributes[SHARDING] = shardings.to_attr()
