"""Rewrites every tensor sharding in an op tree with one function, in the order Shardy's sharding walker visits them."""

from __future__ import annotations

from typing import Callable

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.common import data_flow, func_attrs, value_shardings
from pysdy.passes.common.ir_walk import nested_ops

ShardingFn = Callable[[TensorSharding], TensorSharding]


def transform_shardings(root: ir.Operation, transform: ShardingFn) -> None:
    """Replaces each sharding `s` under `root` (function arguments and results, data-flow
    owner shardings, op shardings) with `transform(s)`, visiting ops in pre-order.

    A manual computation's `in_shardings` / `out_shardings` are transformed as
    written, manual axes included.
    """
    for op in nested_ops(root, pre_order=True):
        if op.name == "func.func":
            transform_func_shardings(op, transform)
        elif op.name == data_flow.MANUAL_COMPUTATION:
            for name in ("in_shardings", "out_shardings"):
                per_value = TensorShardingPerValue.from_attr(op.attributes[name])
                if per_value.shardings:
                    op.attributes[name] = TensorShardingPerValue(tuple(map(transform, per_value.shardings))).to_attr()
        elif op.name in data_flow.DATA_FLOW_OPS:
            shardings = value_shardings.block_arg_owner_shardings(op)
            if shardings:
                value_shardings.set_block_arg_owner_shardings(op, [transform(s) for s in shardings])
            shardings = value_shardings.result_owner_shardings(op)
            if shardings:
                value_shardings.set_result_owner_shardings(op, [transform(s) for s in shardings])
        elif len(op.results) == 1:
            _transform_value(op.results[0], transform)
        elif value_shardings.SHARDING in op.attributes:
            per_value = TensorShardingPerValue.from_attr(op.attributes[value_shardings.SHARDING])
            new = TensorShardingPerValue(tuple(transform(s) for s in per_value.shardings))
            op.attributes[value_shardings.SHARDING] = new.to_attr()


def _transform_value(value: ir.Value, transform: ShardingFn) -> None:
    sharding = value_shardings.get_sharding(value)
    if sharding is None:
        return
    new = transform(sharding)
    if new != sharding:
        value_shardings.set_sharding(value, new)


def transform_func_shardings(func: ir.Operation, transform: ShardingFn) -> None:
    """Replaces each argument and result sharding `s` of `func` with `transform(s)`."""
    func_attrs.set_arg_attrs(func, _transformed(func_attrs.arg_shardings(func), transform))
    func_attrs.set_result_attrs(func, _transformed(func_attrs.result_shardings(func), transform))


def _transformed(shardings: list[TensorSharding | None], transform: ShardingFn) -> dict[int, ir.Attribute]:
    return {index: transform(sharding).to_attr() for index, sharding in enumerate(shardings) if sharding is not None}
