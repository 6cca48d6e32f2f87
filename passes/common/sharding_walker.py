"""Rewrites every tensor sharding in an op tree with one function, in the order Shardy's sharding walker visits them."""

from __future__ import annotations

import functools
from typing import Callable

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.common import data_flow, func_attrs, value_shardings
from pysdy.passes.common.ir_walk import nested_ops

ShardingFn = Callable[[TensorSharding], TensorSharding]


def transform_shardings(root: ir.Operation, transform: ShardingFn) -> None:
    """Replaces each sharding `s` under `root` (function arguments and results, data-flow
    owner shardings, op shardings) with `transform(s)`, visiting ops in pre-order.

    `transform` must give equal shardings for equal shardings: it is applied once
    to many equal ones. A manual computation's `in_shardings` / `out_shardings`
    are transformed as written, manual axes included.
    """
    # Memoized for the walk: shardings repeat, and attributes are uniqued.
    transform_sharding = functools.cache(transform)

    @functools.cache
    def transform_sharding_attr(attr: ir.Attribute) -> ir.Attribute:
        return transform_sharding(TensorSharding.from_attr(attr)).to_attr()

    @functools.cache
    def transform_per_value_attr(attr: ir.Attribute) -> ir.Attribute:
        shardings = TensorShardingPerValue.from_attr(attr).shardings
        return TensorShardingPerValue(tuple(map(transform_sharding, shardings))).to_attr()

    for op in nested_ops(root, pre_order=True):
        name = op.name
        if name == "func.func":
            transform_func_shardings(op, transform_sharding)
        elif name == data_flow.MANUAL_COMPUTATION:
            for attr_name in ("in_shardings", "out_shardings"):
                per_value = TensorShardingPerValue.from_attr(op.attributes[attr_name])
                if per_value.shardings:
                    op.attributes[attr_name] = transform_per_value_attr(op.attributes[attr_name])
        elif name in data_flow.DATA_FLOW_OPS:
            shardings = value_shardings.block_arg_owner_shardings(op)
            if shardings:
                value_shardings.set_block_arg_owner_shardings(op, [transform_sharding(s) for s in shardings])
            shardings = value_shardings.result_owner_shardings(op)
            if shardings:
                value_shardings.set_result_owner_shardings(op, [transform_sharding(s) for s in shardings])
        elif name in value_shardings.OWN_SHARDING_ATTR:
            _replace_attr(op, value_shardings.OWN_SHARDING_ATTR[name], transform_sharding_attr)
        else:
            _replace_attr(op, value_shardings.SHARDING, transform_per_value_attr)


def _replace_attr(op: ir.Operation, name: str, transform_attr: Callable[[ir.Attribute], ir.Attribute]) -> None:
    """Replaces attribute `name` of `op` (if it has it) by its transform, unless that is the same attribute."""
    attributes = op.attributes
    if name in attributes:
        old = attributes[name]
        new = transform_attr(old)
        if new != old:
            attributes[name] = new


def transform_func_shardings(func: ir.Operation, transform: ShardingFn) -> None:
    """Replaces each argument and result sharding `s` of `func` with `transform(s)`."""
    func_attrs.set_arg_attrs(func, _changed(func_attrs.arg_shardings(func), transform))
    func_attrs.set_result_attrs(func, _changed(func_attrs.result_shardings(func), transform))


def _changed(shardings: list[TensorSharding | None], transform: ShardingFn) -> dict[int, ir.Attribute]:
    """The transformed shardings that differ from the originals, by index."""
    changed = {}
    for index, sharding in enumerate(shardings):
        if sharding is not None:
            new = transform(sharding)
            if new != sharding:
                changed[index] = new.to_attr()
    return changed
