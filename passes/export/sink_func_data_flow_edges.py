"""`sdy-sink-func-data-flow-edges`: move each `sdy.func_data_flow_edge`'s sharding onto its input (a func argument or call result), then drop the edge."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding
from pysdy.passes.common.data_flow import replace_edge_with_input
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding, set_sharding
from pysdy.passes.registry import FUNC, Pass, register_pass

FUNC_EDGE_OP = "sdy.func_data_flow_edge"


@register_pass
@dataclasses.dataclass(frozen=True)
class SinkFuncDataFlowEdgesPass(Pass):
    argument = "sdy-sink-func-data-flow-edges"
    summary = "Sinks all `FuncDataFlowEdgeOp` into their input."
    anchor = FUNC

    def run(self, op: ir.Operation) -> None:
        for edge in nested_ops(op, pre_order=True, name=FUNC_EDGE_OP):
            source = edge.operands[0]
            edge_sharding = get_sharding(edge.results[0])
            source_sharding = get_sharding(source)
            if edge_sharding is not None:
                set_sharding(source, edge_sharding)
            elif source_sharding is not None:
                set_sharding(source, TensorSharding.fully_open(source_sharding.mesh, source_sharding.rank))
            replace_edge_with_input(edge)
