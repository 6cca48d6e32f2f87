"""`sdy-sink-data-flow-edges`: move each `sdy.data_flow_edge`'s sharding onto the op that owns the edge, then drop the edge."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import TensorSharding
from pysdy.passes.common.data_flow import (
    DATA_FLOW_OPS,
    EDGE_OP,
    block_arg_edge_owners,
    edge_user,
    replace_edge_with_input,
    result_edge_owners,
)
from pysdy.passes.common.ir_walk import nested_ops_named
from pysdy.passes.common.value_shardings import (
    get_sharding,
    set_block_arg_owner_shardings,
    set_result_owner_shardings,
)
from pysdy.passes.common.values import rank
from pysdy.passes.registry import FUNC, Pass, PassFailure, option, register_pass

SHARDING_ORIGINS = "sdy.sharding_origins"
PROPAGATION_EDGES = "sdy.propagation_edges"
BLOCK_ARG_DEBUG_ATTRS = {
    SHARDING_ORIGINS: "sdy.block_arg_sharding_origins",
    PROPAGATION_EDGES: "sdy.block_arg_propagation_edges",
}
EMPTY_EDGES = "#sdy.propagation_edges<[]>"
RESULT_DEBUG_ATTRS = {
    SHARDING_ORIGINS: "sdy.result_sharding_origins",
    PROPAGATION_EDGES: "sdy.result_propagation_edges",
}


def mesh_name(sharding: TensorSharding) -> str:
    """The mesh symbol a sharding refers to ("" for an inlined mesh), as Shardy's `getMeshName`."""
    return sharding.mesh if isinstance(sharding.mesh, str) else ""


def owner_shardings(owners: list[ir.Value]) -> list[TensorSharding] | None:
    """The shardings of the owners' edges, with fully open ones for edges without a sharding.

    None when no edge has a sharding (then the owning op is left alone).
    """
    shardings = []
    first_mesh = ""
    for owner in owners:
        edge = edge_user(owner)
        sharding = get_sharding(edge.results[0]) if edge is not None else None
        if sharding is not None and not first_mesh:
            first_mesh = mesh_name(sharding)
        shardings.append(sharding)
    if not first_mesh:
        return None
    return [
        s if s is not None else TensorSharding.fully_open(first_mesh, rank(owner))
        for s, owner in zip(shardings, owners)
    ]


@register_pass
@dataclasses.dataclass(frozen=True)
class SinkDataFlowEdgesPass(Pass):
    argument = "sdy-sink-data-flow-edges"
    summary = "Sinks all `DataFlowEdgeOp` into their input."
    anchor = FUNC

    sink_debug_sharding_origins: bool = option(
        False, "Whether to sink the debug sharding origins info."
    )
    sink_debug_propagation_edge_sharding: bool = option(
        False, "Whether to sink the debug propagation edge sharding info."
    )

    def run(self, op: ir.Operation) -> None:
        for nested in nested_ops_named(op, DATA_FLOW_OPS | {EDGE_OP}, pre_order=True):
            if nested.name == EDGE_OP:
                replace_edge_with_input(nested)
            elif nested.name in DATA_FLOW_OPS:
                self._sink_into(nested)

    def _sink_into(self, op: ir.Operation) -> None:
        block_args = block_arg_edge_owners(op)
        shardings = owner_shardings(block_args)
        if shardings is not None:
            set_block_arg_owner_shardings(op, shardings)
        self._save_debug_info(op, block_args, BLOCK_ARG_DEBUG_ATTRS)
        results = result_edge_owners(op)
        shardings = owner_shardings(results)
        if shardings is not None:
            set_result_owner_shardings(op, shardings)
        self._save_debug_info(op, results, RESULT_DEBUG_ATTRS)

    def _save_debug_info(self, op: ir.Operation, owners: list[ir.Value], names: dict[str, str]) -> None:
        wanted = [
            name
            for name, enabled in (
                (SHARDING_ORIGINS, self.sink_debug_sharding_origins),
                (PROPAGATION_EDGES, self.sink_debug_propagation_edge_sharding),
            )
            if enabled
        ]
        every_edge = versions.installed().sink_debug_info_of_every_edge
        for name in wanted:
            infos = []
            for owner in owners:
                edge = edge_user(owner)
                if edge is None:
                    continue
                if name in edge.attributes and str(edge.attributes[name]) != EMPTY_EDGES:
                    infos.append(edge.attributes[name])
                elif every_edge and name == SHARDING_ORIGINS:
                    infos.append(ir.DictAttr.get({}))
                elif every_edge:
                    # jaxlib 0.12 writes an empty `#sdy.propagation_edges<[]>` here, which its own parser rejects
                    # (so no binding can build it, and an opaque attribute of that text fails the sdy verifier):
                    # refuse rather than leave the entry out.
                    op.location.emit_error(
                        f"cannot write the empty {EMPTY_EDGES} jaxlib gives a data-flow edge that recorded no "
                        "propagation edges (jaxlib's parser rejects that attribute)"
                    )
                    raise PassFailure()
                # Before jaxlib 0.12, an edge without the info (or with no propagation edges) adds no entry.
            op.attributes[names[name]] = ir.ArrayAttr.get(infos)
