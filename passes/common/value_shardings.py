"""The sharding of any value, read and written wherever Shardy keeps it (Shardy's getSharding / setSharding).

A function argument's sharding is in the function's `arg_attrs`; a data-flow
edge owner's is on its data-flow op (or on its `sdy.data_flow_edge` once one
exists, which then stands for all the edge's targets); sharding constraints,
reshards, edges and sdy collectives carry their own attribute; any other op
result is an entry of the op's `sdy.sharding`.
"""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.common import data_flow, func_attrs
from pysdy.passes.common.manual_axes import add_free_axes, erase_manual_axes, manual_axes_of
from pysdy.passes.common.values import rank

SHARDING = func_attrs.SHARDING

# Single-result sdy ops that keep their result's sharding in an attribute of their own.
OWN_SHARDING_ATTR = {
    "sdy.sharding_constraint": "sharding",
    "sdy.reshard": "sharding",
    data_flow.EDGE_OP: "sharding",
    "sdy.all_gather": "out_sharding",
    "sdy.all_slice": "out_sharding",
    "sdy.all_reduce": "out_sharding",
    "sdy.all_to_all": "out_sharding",
    "sdy.collective_permute": "out_sharding",
    "sdy.reduce_scatter": "out_sharding",
    "sdy.sharded_to_unreduced": "out_sharding",
    "sdy.replicated_to_unreduced": "out_sharding",
}


def _open_siblings(values: list[ir.Value], index: int, sharding: TensorSharding) -> list[TensorSharding]:
    """`sharding` at `index` and fully open shardings on its mesh elsewhere (Shardy's getOpenShardingsWithShardingAtIndex)."""
    shardings = [TensorSharding.fully_open(sharding.mesh, rank(value)) for value in values]
    shardings[index] = sharding
    return shardings


# --------------------------------------------------------------------------
# Edge owners of data-flow ops
# --------------------------------------------------------------------------


def _per_value(op: ir.Operation, name: str) -> list[TensorSharding]:
    if name not in op.attributes:
        return []
    return list(TensorShardingPerValue.from_attr(op.attributes[name]).shardings)


def _result_shardings_attr(op: ir.Operation) -> str:
    return "out_shardings" if op.name in data_flow.REGION_EDGE_OPS else SHARDING


def block_arg_owner_shardings(op: ir.Operation) -> list[TensorSharding]:
    """The shardings of the op's block-argument edge owners ([] when unset); a manual computation's without its manual axes."""
    if op.name == data_flow.NAMED_COMPUTATION:
        return _per_value(op, "in_shardings")
    if op.name == data_flow.MANUAL_COMPUTATION:
        manual_axes = manual_axes_of(op)
        return [erase_manual_axes(s, manual_axes) for s in _per_value(op, "in_shardings")]
    return []


def set_block_arg_owner_shardings(op: ir.Operation, shardings: list[TensorSharding]) -> None:
    """Sets them; a manual computation's get their manual axes back from its current `in_shardings`."""
    if op.name == data_flow.MANUAL_COMPUTATION:
        manual_axes = manual_axes_of(op)
        outer = _per_value(op, "in_shardings")
        shardings = [add_free_axes(o, s, manual_axes) for o, s in zip(outer, shardings)]
    op.attributes["in_shardings"] = TensorShardingPerValue(tuple(shardings)).to_attr()


def result_owner_shardings(op: ir.Operation) -> list[TensorSharding]:
    """The shardings of the op's result edge owners ([] when unset)."""
    return _per_value(op, _result_shardings_attr(op))


def set_result_owner_shardings(op: ir.Operation, shardings: list[TensorSharding]) -> None:
    op.attributes[_result_shardings_attr(op)] = TensorShardingPerValue(tuple(shardings)).to_attr()


def _owner_sharding(owner: ir.Value) -> TensorSharding | None:
    op = data_flow.owning_op(owner)
    if isinstance(owner, ir.BlockArgument):
        shardings = block_arg_owner_shardings(op)
        return shardings[owner.arg_number] if shardings else None
    shardings = result_owner_shardings(op)
    return shardings[owner.result_number] if shardings else None


def _set_owner_sharding(owner: ir.Value, sharding: TensorSharding) -> None:
    """Sets one edge owner's sharding; if none was set, its siblings become fully open."""
    op = data_flow.owning_op(owner)
    is_arg = isinstance(owner, ir.BlockArgument)
    index = owner.arg_number if is_arg else owner.result_number
    shardings = block_arg_owner_shardings(op) if is_arg else result_owner_shardings(op)
    if shardings:
        shardings[index] = sharding
    else:
        owners = data_flow.block_arg_edge_owners(op) if is_arg else data_flow.result_edge_owners(op)
        shardings = _open_siblings(owners, index, sharding)
    (set_block_arg_owner_shardings if is_arg else set_result_owner_shardings)(op, shardings)


# --------------------------------------------------------------------------
# Any value
# --------------------------------------------------------------------------


def shardable_value(value: ir.Value) -> ir.Value | None:
    """The value whose sharding stands for `value` (Shardy's getShardableValue); None for e.g. scalar block arguments."""
    edge = data_flow.edge_of_target(value)
    if edge is not None:
        return edge.results[0]
    if isinstance(value, ir.OpResult):
        return value
    owner = data_flow.owning_op(value)
    if owner.name == "func.func":
        return value
    if owner.name in data_flow.DATA_FLOW_OPS:
        return data_flow.edge_owner_of_target(value)
    return None


def get_sharding(value: ir.Value) -> TensorSharding | None:
    """The sharding of `value`, None if it has none. A manual computation's block argument has its
    sharding without the manual axes."""
    if isinstance(value, ir.OpResult):  # the common cases first: a result of an ordinary op
        op = value.owner.operation
        if op.name not in data_flow.DATA_FLOW_OPS and op.name not in OWN_SHARDING_ATTR:
            return _result_sharding(op, value.result_number)
    else:  # or a function argument
        op = value.owner.owner.operation
        if op.name == "func.func":
            return func_attrs.arg_sharding(op, value.arg_number)
    value = shardable_value(value)
    if value is None:
        return None
    op = data_flow.owning_op(value)
    if op.name in OWN_SHARDING_ATTR:
        name = OWN_SHARDING_ATTR[op.name]
        return TensorSharding.from_attr(op.attributes[name]) if name in op.attributes else None
    if op.name in data_flow.DATA_FLOW_OPS:
        return _owner_sharding(value)
    return _result_sharding(op, value.result_number)


def through_barriers(value: ir.Value) -> ir.Value:
    """The value an `sdy.propagation_barrier` chain starts from (`value` itself when it is no barrier's result)."""
    while isinstance(value, ir.OpResult) and value.owner.name == "sdy.propagation_barrier":
        value = value.owner.operands[0]
    return value


def sharding_bypassing_barriers(value: ir.Value) -> TensorSharding | None:
    """The sharding of the value `value`'s propagation barriers start from (Shardy's getShardingBypassingBarriers)."""
    return get_sharding(through_barriers(value))


def _result_sharding(op: ir.Operation, number: int) -> TensorSharding | None:
    attributes = op.attributes
    if SHARDING not in attributes:
        return None
    return TensorShardingPerValue.from_attr(attributes[SHARDING]).shardings[number]


def set_sharding(value: ir.Value, sharding: TensorSharding) -> None:
    value = shardable_value(value)
    op = data_flow.owning_op(value)
    if op.name == "func.func":
        func_attrs.set_arg_attr(op, value.arg_number, sharding.to_attr())
    elif op.name in OWN_SHARDING_ATTR:
        op.attributes[OWN_SHARDING_ATTR[op.name]] = sharding.to_attr()
    elif op.name in data_flow.DATA_FLOW_OPS:
        _set_owner_sharding(value, sharding)
    else:
        set_result_sharding(op, value.result_number, sharding)


def set_result_sharding(op: ir.Operation, index: int, sharding: TensorSharding) -> None:
    """Sets result `index`'s entry of the op's `sdy.sharding`; if it had none, the other results get fully open ones."""
    if SHARDING in op.attributes:
        shardings = list(TensorShardingPerValue.from_attr(op.attributes[SHARDING]).shardings)
        shardings[index] = sharding
    else:
        shardings = _open_siblings(list(op.results), index, sharding)
    op.attributes[SHARDING] = TensorShardingPerValue(tuple(shardings)).to_attr()
