"""Shardings across an `sdy.manual_computation` boundary: outside they carry the manual axes, inside not.

In and out shardings of a manual computation start every dimension with its
manual axes, then its free axes. A data-flow edge on a body argument stores
the sharding without the manual axes, and one on a result stores it with them;
propagation along the edge sees the other side's view (Shardy's
transformTargetSharding).
"""

from __future__ import annotations

import dataclasses

from pysdy.dialects.sdy import DimSharding, TensorSharding


def _manual_prefix_length(dim: DimSharding, manual_axes: frozenset[str]) -> int:
    length = 0
    while length < len(dim.axes) and dim.axes[length].name in manual_axes:
        length += 1
    return length


def _free_axes_only(axes, manual_axes: frozenset[str]) -> tuple:
    return tuple(axis for axis in axes if axis.name not in manual_axes)


def erase_manual_axes(sharding: TensorSharding, manual_axes: frozenset[str]) -> TensorSharding:
    """The sharding without the manual-axis prefix of each dimension (nor manual replicated/unreduced axes)."""
    if not manual_axes:
        return sharding
    dims = tuple(
        dataclasses.replace(dim, axes=dim.axes[_manual_prefix_length(dim, manual_axes):]) for dim in sharding.dims
    )
    return TensorSharding(
        sharding.mesh,
        dims,
        _free_axes_only(sharding.replicated, manual_axes),
        _free_axes_only(sharding.unreduced, manual_axes),
    )


def add_free_axes(outer: TensorSharding, new: TensorSharding, manual_axes: frozenset[str]) -> TensorSharding:
    """`outer`'s manual-axis prefixes followed by `new`'s axes (openness and priority from `new`),
    with `outer`'s replicated and unreduced axes."""
    dims = tuple(
        DimSharding(
            outer_dim.axes[: _manual_prefix_length(outer_dim, manual_axes)] + new_dim.axes,
            new_dim.is_closed,
            new_dim.priority,
        )
        for outer_dim, new_dim in zip(outer.dims, new.dims)
    )
    return TensorSharding(new.mesh, dims, outer.replicated, outer.unreduced)


@dataclasses.dataclass(frozen=True)
class ManualEdgeTransform:
    """How an edge of a manual computation converts its stored sharding for propagation and back."""

    outer: TensorSharding  # the in or out sharding of the manual computation for this edge
    manual_axes: frozenset[str]
    on_body_argument: bool

    def before_propagation(self, stored: TensorSharding) -> TensorSharding:
        if self.on_body_argument:
            return add_free_axes(self.outer, stored, self.manual_axes)
        return erase_manual_axes(stored, self.manual_axes)

    def after_propagation(self, propagated: TensorSharding) -> TensorSharding:
        if self.on_body_argument:
            return erase_manual_axes(propagated, self.manual_axes)
        return add_free_axes(self.outer, propagated, self.manual_axes)
