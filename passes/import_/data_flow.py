"""The ops with data-flow edges (Shardy's ShardableDataFlowOpInterface), their edge owners and owner shardings.

Edge owners are the results of stablehlo.while / case / optimization_barrier
(whose shardings live in the op's `sdy.sharding`), and the block arguments and
results of sdy.named_computation / sdy.manual_computation (in `in_shardings` /
`out_shardings`). A manual computation's block arguments see their sharding
without the manual axes. Propagation can use these helpers as they are.
"""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.dialects.sdy import DimSharding, ManualAxes, TensorSharding, TensorShardingPerValue

DATA_FLOW_EDGE = "sdy.data_flow_edge"
NAMED_COMPUTATION = "sdy.named_computation"
MANUAL_COMPUTATION = "sdy.manual_computation"
REGION_EDGE_OPS = frozenset({NAMED_COMPUTATION, MANUAL_COMPUTATION})
RESULT_EDGE_OPS = frozenset({"stablehlo.while", "stablehlo.case", "stablehlo.optimization_barrier"})
DATA_FLOW_OPS = REGION_EDGE_OPS | RESULT_EDGE_OPS


def owning_op(value: ir.Value) -> ir.Operation:
    """The op defining `value`, or the op whose region holds the block `value` is an argument of."""
    if isinstance(value, ir.OpResult):
        return value.owner.operation
    return value.owner.owner.operation


def block_arg_edge_owners(op: ir.Operation) -> list[ir.Value]:
    if op.name in REGION_EDGE_OPS:
        return list(op.regions[0].blocks[0].arguments)
    return []


def result_edge_owners(op: ir.Operation) -> list[ir.Value]:
    return list(op.results) if op.name in DATA_FLOW_OPS else []


def edge_owner_of_target(value: ir.Value) -> ir.Value | None:
    """The edge owner a target belongs to (a while's block arguments map to its results)."""
    op = owning_op(value)
    if op.name not in DATA_FLOW_OPS:
        return None
    if isinstance(value, ir.BlockArgument) and op.name == "stablehlo.while":
        return op.results[value.arg_number]
    return value


def data_flow_edge_of(value: ir.Value) -> ir.Operation | None:
    """The `sdy.data_flow_edge` on the edge owner of target `value` (Shardy's `DataFlowEdgeOp::lookup`)."""
    owner = edge_owner_of_target(value)
    if owner is None:
        return None
    uses = list(owner.uses)
    if len(uses) == 1 and uses[0].owner.name == DATA_FLOW_EDGE:
        return uses[0].owner.operation
    return None


def manual_axes_of(op: ir.Operation) -> tuple[str, ...]:
    return ManualAxes.from_attr(op.attributes["manual_axes"]).axes


def _manual_prefix_length(dim: DimSharding, manual_axes: tuple[str, ...]) -> int:
    count = 0
    while count < len(dim.axes) and dim.axes[count].name in manual_axes:
        count += 1
    return count


def erase_manual_axes(sharding: TensorSharding, manual_axes: tuple[str, ...]) -> TensorSharding:
    """The sharding a manual computation's body sees: leading manual axes of each dimension dropped."""
    if not manual_axes:
        return sharding
    dims = tuple(
        DimSharding(d.axes[_manual_prefix_length(d, manual_axes) :], d.is_closed, d.priority)
        for d in sharding.dims
    )
    return TensorSharding(
        sharding.mesh,
        dims,
        tuple(a for a in sharding.replicated if a.name not in manual_axes),
        tuple(a for a in sharding.unreduced if a.name not in manual_axes),
    )


def add_free_axes(outer: TensorSharding, local: TensorSharding, manual_axes: tuple[str, ...]) -> TensorSharding:
    """`outer`'s manual axes followed by `local`'s axes in each dimension (the inverse of `erase_manual_axes`)."""
    dims = tuple(
        DimSharding(
            outer_dim.axes[: _manual_prefix_length(outer_dim, manual_axes)] + local_dim.axes,
            local_dim.is_closed,
            local_dim.priority,
        )
        for outer_dim, local_dim in zip(outer.dims, local.dims)
    )
    return TensorSharding(local.mesh, dims, outer.replicated, outer.unreduced)


def _per_value(op: ir.Operation, name: str) -> list[TensorSharding]:
    if name not in op.attributes:
        return []
    return list(TensorShardingPerValue.from_attr(op.attributes[name]).shardings)


def _set_per_value(op: ir.Operation, name: str, shardings: list[TensorSharding]) -> None:
    op.attributes[name] = TensorShardingPerValue(tuple(shardings)).to_attr()


def _result_shardings_attr(op: ir.Operation) -> str:
    return "out_shardings" if op.name in REGION_EDGE_OPS else "sdy.sharding"


def block_arg_owner_shardings(op: ir.Operation) -> list[TensorSharding]:
    """The shardings of the op's block-argument edge owners ([] when unset)."""
    if op.name == NAMED_COMPUTATION:
        return _per_value(op, "in_shardings")
    if op.name == MANUAL_COMPUTATION:
        manual_axes = manual_axes_of(op)
        return [erase_manual_axes(s, manual_axes) for s in _per_value(op, "in_shardings")]
    return []


def set_block_arg_owner_shardings(op: ir.Operation, shardings: list[TensorSharding]) -> None:
    if op.name == MANUAL_COMPUTATION:
        manual_axes = manual_axes_of(op)
        outer = _per_value(op, "in_shardings")
        shardings = [add_free_axes(o, s, manual_axes) for o, s in zip(outer, shardings)]
    _set_per_value(op, "in_shardings", shardings)


def result_owner_shardings(op: ir.Operation) -> list[TensorSharding]:
    """The shardings of the op's result edge owners ([] when unset)."""
    return _per_value(op, _result_shardings_attr(op))


def set_result_owner_shardings(op: ir.Operation, shardings: list[TensorSharding]) -> None:
    _set_per_value(op, _result_shardings_attr(op), shardings)


def owner_sharding(owner: ir.Value) -> TensorSharding | None:
    """The sharding the data-flow op keeps for one of its edge owners."""
    op = owning_op(owner)
    if isinstance(owner, ir.BlockArgument):
        shardings = block_arg_owner_shardings(op)
        return shardings[owner.arg_number] if shardings else None
    shardings = result_owner_shardings(op)
    return shardings[owner.result_number] if shardings else None


def set_owner_sharding(owner: ir.Value, sharding: TensorSharding) -> None:
    """Sets one edge owner's sharding; unset siblings become fully open on the same mesh."""
    op = owning_op(owner)
    is_arg = isinstance(owner, ir.BlockArgument)
    owners = block_arg_edge_owners(op) if is_arg else result_edge_owners(op)
    shardings = block_arg_owner_shardings(op) if is_arg else result_owner_shardings(op)
    if not shardings:
        shardings = [TensorSharding.fully_open(sharding.mesh, _rank(v)) for v in owners]
    index = owner.arg_number if is_arg else owner.result_number
    shardings[index] = sharding
    (set_block_arg_owner_shardings if is_arg else set_result_owner_shardings)(op, shardings)


def _rank(value: ir.Value) -> int:
    return value.type.rank if isinstance(value.type, ir.RankedTensorType) else 0
