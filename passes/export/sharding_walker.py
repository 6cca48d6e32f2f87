"""Rewrite every tensor sharding in an op tree with one function, visiting them as Shardy's sharding walker does."""

from __future__ import annotations

from typing import Callable

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.export import func_attrs
from pysdy.passes.export.data_flow_ops import (
    DATA_FLOW_OPS,
    MANUAL_COMPUTATION,
    manual_computation_shardings,
    block_arg_owner_shardings,
    result_owner_shardings,
    set_block_arg_owner_shardings,
    set_result_owner_shardings,
)
from pysdy.passes.export.ir_walk import nested_ops
from pysdy.passes.export.value_shardings import SHARDING_ATTR_OF_OP

ShardingFn = Callable[[TensorSharding], TensorSharding]

PER_VALUE = "sdy.sharding"


def transform_shardings(root: ir.Operation, transform: ShardingFn) -> None:
    for op in nested_ops(root, pre_order=True):
        if op.name == "func.func":
            _transform_func(op, transform)
        elif op.name == MANUAL_COMPUTATION:
            in_shardings, out_shardings = manual_computation_shardings(op)
            op.attributes["in_shardings"] = TensorShardingPerValue(tuple(map(transform, in_shardings))).to_attr()
            op.attributes["out_shardings"] = TensorShardingPerValue(tuple(map(transform, out_shardings))).to_attr()
        elif op.name in DATA_FLOW_OPS:
            shardings = block_arg_owner_shardings(op)
            if shardings:
                set_block_arg_owner_shardings(op, [transform(s) for s in shardings])
            shardings = result_owner_shardings(op)
            if shardings:
                set_result_owner_shardings(op, [transform(s) for s in shardings])
        elif len(op.results) == 1 and op.name in SHARDING_ATTR_OF_OP:
            _transform_attr(op, SHARDING_ATTR_OF_OP[op.name], transform)
        elif PER_VALUE in op.attributes:
            shardings = TensorShardingPerValue.from_attr(op.attributes[PER_VALUE]).shardings
            new = TensorShardingPerValue(tuple(transform(s) for s in shardings))
            if len(op.results) != 1 or new.shardings != shardings:
                op.attributes[PER_VALUE] = new.to_attr()


def _transform_attr(op: ir.Operation, name: str, transform: ShardingFn) -> None:
    if name not in op.attributes:
        return
    sharding = TensorSharding.from_attr(op.attributes[name])
    new = transform(sharding)
    if new != sharding:
        op.attributes[name] = new.to_attr()


def _transform_func(func: ir.Operation, transform: ShardingFn) -> None:
    for index in range(func_attrs.num_arguments(func)):
        attr = func_attrs.get_arg_attr(func, index)
        if attr is not None:
            func_attrs.set_arg_attr(func, index, transform(TensorSharding.from_attr(attr)).to_attr())
    for index in range(func_attrs.num_results(func)):
        attr = func_attrs.get_result_attr(func, index)
        if attr is not None:
            func_attrs.set_result_attr(func, index, transform(TensorSharding.from_attr(attr)).to_attr())
