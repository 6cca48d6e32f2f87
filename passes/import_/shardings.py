"""Reading and writing the sharding of a value wherever Shardy keeps it (Shardy's getSharding / setSharding).

A function argument's sharding is in the function's `arg_attrs`; a data-flow
edge owner's is on its data-flow op (or on its `sdy.data_flow_edge` once one
exists); sharding constraints, reshards, edges and sdy collectives carry their
own attribute; any other op result is an entry of the op's `sdy.sharding`.
"""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.import_ import data_flow

SHARDING = "sdy.sharding"

# Single-result sdy ops that keep their result's sharding in an attribute of their own.
OWN_SHARDING_ATTR = {
    "sdy.sharding_constraint": "sharding",
    "sdy.reshard": "sharding",
    "sdy.data_flow_edge": "sharding",
    "sdy.all_gather": "out_sharding",
    "sdy.all_slice": "out_sharding",
    "sdy.all_reduce": "out_sharding",
    "sdy.all_to_all": "out_sharding",
    "sdy.collective_permute": "out_sharding",
    "sdy.reduce_scatter": "out_sharding",
    "sdy.sharded_to_unreduced": "out_sharding",
    "sdy.replicated_to_unreduced": "out_sharding",
}


def rank(value: ir.Value) -> int:
    return value.type.rank if isinstance(value.type, ir.ShapedType) and value.type.has_rank else 0


def is_static_shaped(value: ir.Value) -> bool:
    return isinstance(value.type, ir.ShapedType) and value.type.has_static_shape


# --------------------------------------------------------------------------
# Function arguments and results
# --------------------------------------------------------------------------


def _func_type(func: ir.Operation) -> ir.FunctionType:
    return ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)


def _attr_dicts(func: ir.Operation, key: str, count: int) -> list[dict[str, ir.Attribute]]:
    if key not in func.attributes:
        return [{} for _ in range(count)]
    return [{a.name: a.attr for a in ir.DictAttr(d)} for d in ir.ArrayAttr(func.attributes[key])]


def _set_attr_dicts(func: ir.Operation, key: str, dicts: list[dict[str, ir.Attribute]]) -> None:
    """Writes `arg_attrs` / `res_attrs`, dropping it when every dictionary is empty (as MLIR does)."""
    if all(not d for d in dicts):
        if key in func.attributes:
            del func.attributes[key]
        return
    func.attributes[key] = ir.ArrayAttr.get([ir.DictAttr.get(d) for d in dicts])


def func_attr(func: ir.Operation, key: str, index: int, name: str = SHARDING) -> ir.Attribute | None:
    """Attribute `name` of argument (`key="arg_attrs"`) or result (`key="res_attrs"`) `index`."""
    if key not in func.attributes:
        return None
    entries = ir.DictAttr(ir.ArrayAttr(func.attributes[key])[index])
    return entries[name] if name in entries else None


def set_func_attr(func: ir.Operation, key: str, index: int, value: ir.Attribute | None, name: str = SHARDING) -> None:
    """Sets (or with None removes) attribute `name` of one argument or result of `func`."""
    function_type = _func_type(func)
    count = len(function_type.inputs if key == "arg_attrs" else function_type.results)
    dicts = _attr_dicts(func, key, count)
    if value is None:
        if name not in dicts[index]:
            return
        del dicts[index][name]
    else:
        dicts[index][name] = value
    _set_attr_dicts(func, key, dicts)


def func_num_args(func: ir.Operation) -> int:
    return len(_func_type(func).inputs)


def func_num_results(func: ir.Operation) -> int:
    return len(_func_type(func).results)


# --------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------


def shardable_value(value: ir.Value) -> ir.Value | None:
    """The value whose sharding stands for `value` (Shardy's getShardableValue); None for scalar block arguments."""
    edge = data_flow.data_flow_edge_of(value)
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
    value = shardable_value(value)
    if value is None:
        return None
    op = data_flow.owning_op(value)
    if op.name == "func.func":
        attr = func_attr(op, "arg_attrs", value.arg_number)
        return None if attr is None else TensorSharding.from_attr(attr)
    if op.name in OWN_SHARDING_ATTR:
        name = OWN_SHARDING_ATTR[op.name]
        return TensorSharding.from_attr(op.attributes[name]) if name in op.attributes else None
    if op.name in data_flow.DATA_FLOW_OPS:
        return data_flow.owner_sharding(value)
    if SHARDING not in op.attributes:
        return None
    return TensorShardingPerValue.from_attr(op.attributes[SHARDING]).shardings[value.result_number]


def set_sharding(value: ir.Value, sharding: TensorSharding) -> None:
    value = shardable_value(value)
    op = data_flow.owning_op(value)
    if op.name == "func.func":
        set_func_attr(op, "arg_attrs", value.arg_number, sharding.to_attr())
    elif op.name in OWN_SHARDING_ATTR:
        op.attributes[OWN_SHARDING_ATTR[op.name]] = sharding.to_attr()
    elif op.name in data_flow.DATA_FLOW_OPS:
        data_flow.set_owner_sharding(value, sharding)
    else:
        set_sharding_at_index(op, value.result_number, sharding)


def set_sharding_at_index(op: ir.Operation, index: int, sharding: TensorSharding) -> None:
    """Sets result `index`'s entry of `sdy.sharding`; missing entries become fully open on the same mesh."""
    if SHARDING in op.attributes:
        shardings = list(TensorShardingPerValue.from_attr(op.attributes[SHARDING]).shardings)
    else:
        shardings = [TensorSharding.fully_open(sharding.mesh, rank(r)) for r in op.results]
    shardings[index] = sharding
    op.attributes[SHARDING] = TensorShardingPerValue(tuple(shardings)).to_attr()
