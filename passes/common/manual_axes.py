"""A manual computation's shardings with and without its manual axes (outside they carry them, inside not).

In and out shardings of an `sdy.manual_computation` start every dimension
with its manual axes, then its free axes (the verifier ensures that order).
"""

from __future__ import annotations

from typing import Collection

from jaxlib.mlir import ir

from pysdy.dialects.sdy import DimSharding, ManualAxes, TensorSharding


def enclosing_manual_computation(op: ir.Operation) -> ir.Operation | None:
    """The innermost `sdy.manual_computation` `op` is nested in, if any."""
    parent = op.parent
    while parent is not None and parent.name != "sdy.manual_computation":
        parent = parent.parent
    return parent


def manual_axes_of(manual_computation: ir.Operation) -> tuple[str, ...]:
    return ManualAxes.from_attr(manual_computation.attributes["manual_axes"]).axes


def _manual_prefix_length(dim: DimSharding, manual_axes: Collection[str]) -> int:
    length = 0
    while length < len(dim.axes) and dim.axes[length].name in manual_axes:
        length += 1
    return length


def erase_manual_axes(sharding: TensorSharding, manual_axes: Collection[str]) -> TensorSharding:
    """The sharding as the body sees it: without the manual-axis prefix of each dimension nor manual replicated/unreduced axes."""
    if not manual_axes:
        return sharding
    dims = tuple(
        DimSharding(dim.axes[_manual_prefix_length(dim, manual_axes) :], dim.is_closed, dim.priority)
        for dim in sharding.dims
    )
    return TensorSharding(
        sharding.mesh,
        dims,
        tuple(axis for axis in sharding.replicated if axis.name not in manual_axes),
        tuple(axis for axis in sharding.unreduced if axis.name not in manual_axes),
        sharding.reduction,
    )


def add_free_axes(outer: TensorSharding, local: TensorSharding, manual_axes: Collection[str]) -> TensorSharding:
    """`outer`'s manual-axis prefixes followed by `local`'s axes (openness, priority and mesh from `local`),
    with `outer`'s replicated and unreduced axes: the inverse of `erase_manual_axes`."""
    dims = tuple(
        DimSharding(
            outer_dim.axes[: _manual_prefix_length(outer_dim, manual_axes)] + local_dim.axes,
            local_dim.is_closed,
            local_dim.priority,
        )
        for outer_dim, local_dim in zip(outer.dims, local.dims)
    )
    return TensorSharding(local.mesh, dims, outer.replicated, outer.unreduced, outer.reduction)
