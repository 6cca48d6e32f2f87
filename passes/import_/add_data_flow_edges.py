"""`sdy-add-data-flow-edges`: put an `sdy.data_flow_edge`, holding the owner's sharding, on every data-flow
edge owner."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.passes.common import data_flow
from pysdy.passes.common.ir_walk import nested_ops_named
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.common.values import insertion_point_after, is_static_shaped
from pysdy.passes.registry import Pass, register_pass


def add_data_flow_edges(owners: list[ir.Value]) -> None:
    """Inserts an edge after each static-shaped owner and routes the owner's other uses through it."""
    # Going backwards keeps the edges of consecutive owners in the owners' order.
    for owner in reversed(owners):
        if not is_static_shaped(owner):
            continue
        sharding = get_sharding(owner)
        edge = sdy.DataFlowEdgeOp(
            owner,
            sharding=None if sharding is None else sharding.to_attr(),
            loc=owner.location,
            ip=insertion_point_after(owner),
        )
        owner.replace_all_uses_except(edge.result, edge.operation)


@register_pass
@dataclasses.dataclass(frozen=True)
class AddDataFlowEdgesPass(Pass):
    argument = "sdy-add-data-flow-edges"
    summary = "Inserts `DataFlowEdgeOp` for every data-flow edge."

    def run(self, op: ir.Operation) -> None:
        for data_flow_op in nested_ops_named(op, data_flow.DATA_FLOW_OPS):
            add_data_flow_edges(data_flow.block_arg_edge_owners(data_flow_op))
            add_data_flow_edges(data_flow.result_edge_owners(data_flow_op))
