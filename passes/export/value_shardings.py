"""The sharding of any value, read from wherever Shardy keeps it (func arg attrs, op attributes, data-flow edges)."""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.export import func_attrs
from pysdy.passes.export.data_flow_ops import EDGE_OP, REGION_EDGE_OPS, edge_sharding, edge_user, mesh_name, rank

PER_VALUE = "sdy.sharding"

# Single-result ops that keep their result's sharding in their own attribute.
SHARDING_ATTR_OF_OP = {
    "sdy.sharding_constraint": "sharding",
    "sdy.reshard": "sharding",
    EDGE_OP: "sharding",
    "sdy.all_gather": "out_sharding",
    "sdy.all_slice": "out_sharding",
    "sdy.all_reduce": "out_sharding",
    "sdy.all_to_all": "out_sharding",
    "sdy.collective_permute": "out_sharding",
    "sdy.reduce_scatter": "out_sharding",
    "sdy.sharded_to_unreduced": "out_sharding",
    "sdy.replicated_to_unreduced": "out_sharding",
}


def _per_value(op: ir.Operation, name: str, index: int) -> TensorSharding | None:
    if name not in op.attributes:
        return None
    return TensorShardingPerValue.from_attr(op.attributes[name]).shardings[index]


def result_sharding(op: ir.Operation, index: int) -> TensorSharding | None:
    """The sharding of result `index` of `op`, or None."""
    if op.name in SHARDING_ATTR_OF_OP:
        name = SHARDING_ATTR_OF_OP[op.name]
        return TensorSharding.from_attr(op.attributes[name]) if name in op.attributes else None
    if op.name in REGION_EDGE_OPS:
        return _per_value(op, "out_shardings", index)
    return _per_value(op, PER_VALUE, index)


def set_result_sharding(op: ir.Operation, index: int, sharding: TensorSharding) -> None:
    """Sets one result's `sdy.sharding`; the other results get fully open ones if the op had none."""
    if PER_VALUE in op.attributes:
        shardings = list(TensorShardingPerValue.from_attr(op.attributes[PER_VALUE]).shardings)
    else:
        shardings = [TensorSharding.fully_open(mesh_name(sharding), rank(r)) for r in op.results]
    shardings[index] = sharding
    op.attributes[PER_VALUE] = TensorShardingPerValue(tuple(shardings)).to_attr()


def get_sharding(value: ir.Value) -> TensorSharding | None:
    """The sharding of `value`, as Shardy's `getSharding` finds it."""
    edge = edge_user(value)
    if edge is not None:
        return edge_sharding(edge)
    if isinstance(value, ir.OpResult):
        return result_sharding(value.owner.operation, value.result_number)
    parent = value.owner.owner.operation
    if parent.name == "func.func":
        attr = func_attrs.get_arg_attr(parent, value.arg_number)
        return None if attr is None else TensorSharding.from_attr(attr)
    if parent.name in REGION_EDGE_OPS:
        return _per_value(parent, "in_shardings", value.arg_number)
    if parent.name in ("stablehlo.while", "stablehlo.case", "stablehlo.optimization_barrier"):
        return _per_value(parent, PER_VALUE, value.arg_number)
    return None
