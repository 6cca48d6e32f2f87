"""The ops whose values are tied by `sdy.data_flow_edge`s, and where each keeps its edge owners' shardings.

Edge owners are the results of stablehlo.while / case / optimization_barrier
(kept in the op's `sdy.sharding`), and the block arguments and results of
sdy.named_computation / sdy.manual_computation (kept in `in_shardings` /
`out_shardings`; a manual computation's block arguments see its shardings
without the manual axes).
"""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.dialects.sdy import DimSharding, ManualAxes, TensorSharding, TensorShardingPerValue

EDGE_OP = "sdy.data_flow_edge"
NAMED_COMPUTATION = "sdy.named_computation"
MANUAL_COMPUTATION = "sdy.manual_computation"
REGION_EDGE_OPS = frozenset({NAMED_COMPUTATION, MANUAL_COMPUTATION})
DATA_FLOW_OPS = frozenset(
    {"stablehlo.while", "stablehlo.case", "stablehlo.optimization_barrier"} | REGION_EDGE_OPS
)


def rank(value: ir.Value) -> int:
    return value.type.rank if isinstance(value.type, ir.ShapedType) else 0


def mesh_name(sharding: TensorSharding) -> str:
    """The mesh symbol a sharding refers to ("" for an inlined mesh)."""
    return sharding.mesh if isinstance(sharding.mesh, str) else ""


def edge_user(value: ir.Value) -> ir.Operation | None:
    """The `sdy.data_flow_edge` that is the only user of `value`, if any."""
    uses = list(value.uses)
    if len(uses) == 1 and uses[0].owner.operation.name == EDGE_OP:
        return uses[0].owner.operation
    return None


def edge_sharding(edge: ir.Operation) -> TensorSharding | None:
    if "sharding" not in edge.attributes:
        return None
    return TensorSharding.from_attr(edge.attributes["sharding"])


def replace_edge_with_input(edge: ir.Operation) -> None:
    edge.results[0].replace_all_uses_with(edge.operands[0])
    edge.erase()


def block_arg_owners(op: ir.Operation) -> list[ir.Value]:
    if op.name in REGION_EDGE_OPS:
        return list(op.regions[0].blocks[0].arguments)
    return []


def result_owners(op: ir.Operation) -> list[ir.Value]:
    return list(op.results)


def _per_value(shardings: list[TensorSharding]) -> ir.Attribute:
    return TensorShardingPerValue(tuple(shardings)).to_attr()


def set_block_arg_owner_shardings(op: ir.Operation, shardings: list[TensorSharding]) -> None:
    if op.name == MANUAL_COMPUTATION:
        manual_axes = ManualAxes.from_attr(op.attributes["manual_axes"]).axes
        outer = TensorShardingPerValue.from_attr(op.attributes["in_shardings"]).shardings
        shardings = [with_manual_axes(o, s, manual_axes) for o, s in zip(outer, shardings)]
    op.attributes["in_shardings"] = _per_value(shardings)


def set_result_owner_shardings(op: ir.Operation, shardings: list[TensorSharding]) -> None:
    if op.name in REGION_EDGE_OPS:
        op.attributes["out_shardings"] = _per_value(shardings)
    else:
        op.attributes["sdy.sharding"] = _per_value(shardings)


def with_manual_axes(
    outer: TensorSharding, local: TensorSharding, manual_axes: tuple[str, ...]
) -> TensorSharding:
    """`local` (a sharding seen inside a manual computation) with `outer`'s leading manual axes put back."""
    dims = []
    for outer_dim, local_dim in zip(outer.dims, local.dims):
        manual_prefix = []
        for axis in outer_dim.axes:
            if axis.name not in manual_axes:
                break
            manual_prefix.append(axis)
        dims.append(DimSharding(tuple(manual_prefix) + local_dim.axes, local_dim.is_closed))
    return TensorSharding(outer.mesh, tuple(dims), outer.replicated, outer.unreduced)


def _per_value_attr(op: ir.Operation, name: str) -> list[TensorSharding]:
    if name not in op.attributes:
        return []
    return list(TensorShardingPerValue.from_attr(op.attributes[name]).shardings)


def block_arg_owner_shardings(op: ir.Operation) -> list[TensorSharding]:
    """The shardings of the op's block-argument edge owners ([] when it has none or they are unset).

    Only for named computations: a manual computation's `in_shardings` are
    outer shardings, see `manual_computation_shardings`.
    """
    if op.name == NAMED_COMPUTATION:
        return _per_value_attr(op, "in_shardings")
    return []


def manual_computation_shardings(op: ir.Operation) -> tuple[list[TensorSharding], list[TensorSharding]]:
    return _per_value_attr(op, "in_shardings"), _per_value_attr(op, "out_shardings")


def result_owner_shardings(op: ir.Operation) -> list[TensorSharding]:
    """The shardings of the op's result edge owners ([] when unset)."""
    return _per_value_attr(op, "out_shardings" if op.name in REGION_EDGE_OPS else "sdy.sharding")
