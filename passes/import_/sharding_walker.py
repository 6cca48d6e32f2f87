"""Rewrites every tensor sharding in an op tree with one function, in the order Shardy's sharding walker visits them."""

from __future__ import annotations

from typing import Callable

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.import_ import data_flow, shardings
from pysdy.passes.import_.ir_utils import ops_in_walk_order

ShardingFn = Callable[[TensorSharding], TensorSharding]


def transform_shardings(root: ir.Operation, transform: ShardingFn) -> None:
    """Replaces each sharding `s` under `root` (function arguments and results, data-flow
    owner shardings, op shardings) with `transform(s)`, visiting ops in pre-order.

    A manual computation's `in_shardings` / `out_shardings` are transformed as
    written, manual axes included.
    """
    for op in ops_in_walk_order(root, pre_order=True):
        if op.name == "func.func":
            _transform_func(op, transform)
        elif op.name == data_flow.MANUAL_COMPUTATION:
            for name in ("in_shardings", "out_shardings"):
                per_value = TensorShardingPerValue.from_attr(op.attributes[name])
                if per_value.shardings:
                    new = TensorShardingPerValue(tuple(transform(s) for s in per_value.shardings))
                    op.attributes[name] = new.to_attr()
        elif op.name in data_flow.DATA_FLOW_OPS:
            owner_shardings = data_flow.block_arg_owner_shardings(op)
            if owner_shardings:
                data_flow.set_block_arg_owner_shardings(op, [transform(s) for s in owner_shardings])
            owner_shardings = data_flow.result_owner_shardings(op)
            if owner_shardings:
                data_flow.set_result_owner_shardings(op, [transform(s) for s in owner_shardings])
        elif len(op.results) == 1:
            _transform_value(op.results[0], transform)
        elif shardings.SHARDING in op.attributes:
            per_value = TensorShardingPerValue.from_attr(op.attributes[shardings.SHARDING])
            new = TensorShardingPerValue(tuple(transform(s) for s in per_value.shardings))
            op.attributes[shardings.SHARDING] = new.to_attr()


def _transform_value(value: ir.Value, transform: ShardingFn) -> None:
    sharding = shardings.get_sharding(value)
    if sharding is None:
        return
    new = transform(sharding)
    if new != sharding:
        shardings.set_sharding(value, new)


def _transform_func(func: ir.Operation, transform: ShardingFn) -> None:
    counts = (("arg_attrs", shardings.func_num_args(func)), ("res_attrs", shardings.func_num_results(func)))
    for key, count in counts:
        for index in range(count):
            attr = shardings.func_attr(func, key, index)
            if attr is None:
                continue
            sharding = TensorSharding.from_attr(attr)
            new = transform(sharding)
            if new != sharding:
                shardings.set_func_attr(func, key, index, new.to_attr())
