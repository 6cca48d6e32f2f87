"""`sdy-add-func-data-flow-edges`: put an `sdy.func_data_flow_edge` on every call result and on the arguments
of every function but the main one (`@main`, or the module's only function)."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.dialects.sdy import TensorShardingPerValue
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.main_function import main_func
from pysdy.passes.common.value_shardings import SHARDING, get_sharding
from pysdy.passes.common.values import insertion_point_after, is_static_shaped
from pysdy.passes.import_.call_graph import functions, has_body
from pysdy.passes.registry import Pass, PassFailure, register_pass


def _add_edges(owners: list[ir.Value]) -> None:
    for owner in reversed(owners):
        if not is_static_shaped(owner):
            continue
        edge = sdy.FuncDataFlowEdgeOp(owner, loc=owner.location, ip=insertion_point_after(owner))
        sharding = get_sharding(owner)
        if sharding is not None:
            edge.operation.attributes[SHARDING] = TensorShardingPerValue((sharding,)).to_attr()
        owner.replace_all_uses_except(edge.result, edge.operation)


@register_pass
@dataclasses.dataclass(frozen=True)
class AddFuncDataFlowEdgesPass(Pass):
    argument = "sdy-add-func-data-flow-edges"
    summary = "Inserts `FuncDataFlowEdgeOp` for every func/call data-flow edge."
    leaves_invalid_ir = True  # e.g. an edge already on an argument, now fed by the new edge instead

    def run(self, op: ir.Operation) -> None:
        main = main_func(op)
        if main is None:
            op.location.emit_error(
                "sdy-add-func-data-flow-edges needs a function @main, or a single function "
                "(jaxlib's C++ aborts without)"
            )
            raise PassFailure()
        for func in functions(op):
            if has_body(func) and func != main:
                _add_edges(list(func.regions[0].blocks[0].arguments))
        for call in nested_ops(op, name="func.call"):
            _add_edges(list(call.results))
