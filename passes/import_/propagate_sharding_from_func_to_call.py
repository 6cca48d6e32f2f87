"""`sdy-propagate-sharding-from-func-to-call`: give calls without result shardings their callee's result shardings."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import SHARDING
from pysdy.passes.common.values import type_rank
from pysdy.passes.import_.call_graph import callee_name
from pysdy.passes.import_.symbols import SymbolTable, mesh_of
from pysdy.passes.registry import Pass, register_pass


def func_shardings(
    shardings: list[TensorSharding | None], types: list[ir.Type], symbols: SymbolTable
) -> TensorShardingPerValue | None:
    """A function's argument or result `shardings` for values of `types`, missing ones fully open
    on the first non-maximal mesh among them; None when there is no such mesh (Shardy's
    getFuncArgShardings / getFuncResultShardings)."""
    mesh = next((s.mesh for s in shardings if s is not None and not mesh_of(s, symbols).is_maximal), None)
    if mesh is None:
        return None
    return TensorShardingPerValue(
        tuple(s if s is not None else TensorSharding.fully_open(mesh, type_rank(t)) for s, t in zip(shardings, types))
    )


@register_pass
@dataclasses.dataclass(frozen=True)
class PropagateShardingFromFuncToCallPass(Pass):
    argument = "sdy-propagate-sharding-from-func-to-call"
    summary = "Set call result shardings as the func result shardings, if empty."

    def run(self, op: ir.Operation) -> None:
        symbols = SymbolTable(op)
        for call in nested_ops(op, name="func.call"):
            if SHARDING in call.attributes:
                continue
            shardings = func_attrs.result_shardings(symbols.lookup(callee_name(call)))
            shardings = func_shardings(shardings, [result.type for result in call.results], symbols)
            if shardings is not None:
                call.attributes[SHARDING] = shardings.to_attr()
