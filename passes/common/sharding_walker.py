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
    new_sharding_attr = _new_sharding_attr_fn(transform_sharding)

    @functools.cache
    def new_per_value_attr(attr: ir.Attribute) -> ir.Attribute | None:
        """The transformed sharding-per-value attribute, None if unchanged."""
        shardings = TensorShardingPerValue.from_attr(attr).shardings
        new = TensorShardingPerValue(tuple(map(transform_sharding, shardings))).to_attr()
        return None if new == attr else new

    sharding, own_sharding_attr = value_shardings.SHARDING, value_shardings.OWN_SHARDING_ATTR  # hoisted: hot loop
    for op in nested_ops(root, pre_order=True):
        name = op.name
        if name in _OPS_WITH_OWNER_SHARDINGS:
            if name == "func.func":
                _transform_func_sharding_attrs(op, new_sharding_attr)
            else:
                _transform_owner_shardings(op, transform_sharding, new_per_value_attr)
            continue
        attributes = op.attributes
        attr_name = own_sharding_attr.get(name)
        if attr_name is None:
            if sharding in attributes:
                new = new_per_value_attr(attributes[sharding])
                if new is not None:
                    attributes[sharding] = new
        elif attr_name in attributes:
            new = new_sharding_attr(attributes[attr_name])
            if new is not None:
                attributes[attr_name] = new


_OPS_WITH_OWNER_SHARDINGS = data_flow.DATA_FLOW_OPS | {"func.func"}


def _new_sharding_attr_fn(transform: ShardingFn) -> Callable[[ir.Attribute], ir.Attribute | None]:
    """A memoized function from a sharding attribute to its transform, None if unchanged."""

    @functools.cache
    def new_sharding_attr(attr: ir.Attribute) -> ir.Attribute | None:
        new = transform(TensorSharding.from_attr(attr)).to_attr()
        return None if new == attr else new

    return new_sharding_attr


def _transform_owner_shardings(
    op: ir.Operation, transform: ShardingFn, new_per_value_attr: Callable[[ir.Attribute], ir.Attribute | None]
) -> None:
    """Of a data-flow op's edge owners."""
    if op.name == data_flow.MANUAL_COMPUTATION:
        for attr_name in ("in_shardings", "out_shardings"):
            attr = op.attributes[attr_name]
            if TensorShardingPerValue.from_attr(attr).shardings:
                new = new_per_value_attr(attr)
                if new is not None:
                    op.attributes[attr_name] = new
    else:
        shardings = value_shardings.block_arg_owner_shardings(op)
        if shardings:
            value_shardings.set_block_arg_owner_shardings(op, [transform(s) for s in shardings])
        shardings = value_shardings.result_owner_shardings(op)
        if shardings:
            value_shardings.set_result_owner_shardings(op, [transform(s) for s in shardings])


def transform_func_shardings(func: ir.Operation, transform: ShardingFn) -> None:
    """Replaces each argument and result sharding `s` of `func` with `transform(s)`."""
    _transform_func_sharding_attrs(func, _new_sharding_attr_fn(transform))


def _transform_func_sharding_attrs(
    func: ir.Operation, new_sharding_attr: Callable[[ir.Attribute], ir.Attribute | None]
) -> None:
    func_attrs.set_arg_attrs(func, _changed(func_attrs.arg_sharding_attrs(func), new_sharding_attr))
    func_attrs.set_result_attrs(func, _changed(func_attrs.result_sharding_attrs(func), new_sharding_attr))


def _changed(
    attrs: tuple[ir.Attribute | None, ...], new_sharding_attr: Callable[[ir.Attribute], ir.Attribute | None]
) -> dict[int, ir.Attribute]:
    """The transformed sharding attributes that differ from the originals, by index."""
    changed = {}
    for index, attr in enumerate(attrs):
        if attr is not None:
            new = new_sharding_attr(attr)
            if new is not None:
                changed[index] = new
    return changed
