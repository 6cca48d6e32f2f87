"""Shardy's sharding projection: tensor shardings seen through an op rule's factors, and back.

Projecting a dimension sharding hands its axes to the dimension's factors,
major to minor, splitting an axis into sub-axes where a factor is smaller than
it. Axes that cannot be split evenly over a non-minor-most factor become its
overflow axes, kept only to be written back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional, Sequence

from pysdy.dialects.sdy import (
    AxisRef,
    DimSharding,
    Mesh,
    MeshOrRef,
    OpShardingRule,
    TensorMapping,
    TensorSharding,
)
from pysdy.passes.propagation import axis_refs


@dataclass
class FactorSharding:
    """The axes one tensor is sharded on along one factor, and whether more may be added."""

    axis_refs: list[AxisRef] = field(default_factory=list)
    is_closed: bool = False
    is_minor_most: bool = False
    # Axes of the dimension after this non-minor-most factor whose first does
    # not divide the factor's remaining size; written back after its axes.
    overflow_axes: list[AxisRef] = field(default_factory=list)


@dataclass
class TensorFactorShardings:
    """One tensor's factor shardings (only the factors its dimensions map to), replicated and unreduced axes."""

    factor_index_to_sharding: dict[int, FactorSharding] = field(default_factory=dict)
    replicated_axes: list[AxisRef] = field(default_factory=list)
    unreduced_axes: list[AxisRef] = field(default_factory=list)
    reduction: str = "sum"  # how the unreduced axes are to be reduced

    def expand_sharding_axes(self, factor_index: int, new_axes: Sequence[AxisRef]) -> bool:
        """Replaces the factor's axes by `new_axes` if they strictly extend them; returns whether it did."""
        factor_sharding = self.factor_index_to_sharding.get(factor_index)
        if factor_sharding is None:
            return False
        if axis_refs.is_strict_prefix(factor_sharding.axis_refs, new_axes):
            factor_sharding.axis_refs = list(new_axes)
            return True
        return False

    def update_sharding_axes(self, factor_index: int, new_axes: Sequence[AxisRef]) -> bool:
        """Sets the factor's axes to `new_axes` and drops its overflow axes; returns whether that changed it."""
        factor_sharding = self.factor_index_to_sharding.get(factor_index)
        if factor_sharding is None or (factor_sharding.axis_refs == new_axes and not factor_sharding.overflow_axes):
            return False
        factor_sharding.axis_refs = list(new_axes)
        factor_sharding.overflow_axes = []
        return True

    def has_overflow_axes(self) -> bool:
        return any(sharding.overflow_axes for sharding in self.factor_index_to_sharding.values())

    def sharding_size(self, mesh: Mesh) -> int:
        """The number of shards: the product of every factor's axes and overflow axes."""
        return math.prod(
            axis_refs.total_size(sharding.axis_refs + sharding.overflow_axes, mesh)
            for sharding in self.factor_index_to_sharding.values()
        )

    def to_tensor_sharding(
        self,
        mapping: TensorMapping,
        factor_sizes: Sequence[int],
        mesh_name_or_mesh: MeshOrRef,
        mesh: Mesh,
    ) -> TensorSharding:
        """Projects the factor shardings back onto the dimensions of `mapping` (createTensorShardingAttr)."""
        dims = []
        for dim_factors in mapping:
            is_closed = False
            dim_axes: list[AxisRef] = []
            for factor_index in dim_factors:
                factor_sharding = self.factor_index_to_sharding[factor_index]
                is_closed |= factor_sharding.is_closed
                sharded_size = _add_axes_to_dim(dim_axes, factor_sharding.axis_refs, mesh)
                if factor_sharding.overflow_axes:
                    # The factors after one with overflow axes are unsharded.
                    _add_axes_to_dim(dim_axes, factor_sharding.overflow_axes, mesh)
                    break
                if sharded_size < factor_sizes[factor_index]:
                    # Sharding any later factor would need a strided view.
                    break
            dims.append(DimSharding(tuple(dim_axes), is_closed))
        return TensorSharding(
            mesh_name_or_mesh, tuple(dims), tuple(self.replicated_axes), tuple(self.unreduced_axes), self.reduction
        )


def _add_axes_to_dim(dim_axes: list[AxisRef], axes: Sequence[AxisRef], mesh: Mesh) -> int:
    """Appends `axes`, merging the first into the last one already there when consecutive; returns their size."""
    size = 1
    for index, ref in enumerate(axes):
        size *= ref.size(mesh)
        if index == 0 and dim_axes and axis_refs.can_merge(dim_axes[-1], ref):
            dim_axes[-1] = axis_refs.merge(dim_axes[-1], ref, mesh)
        else:
            dim_axes.append(ref)
    return size


class _AxisCursor:
    """Walks a dimension's axes, handing out whole axes or leading sub-axes of the current one."""

    def __init__(self, axes: Sequence[AxisRef], mesh: Mesh):
        self.axes = axes
        self.mesh = mesh
        self.index = -1
        self.size = 0
        self.split_pre_size: Optional[int] = None
        self.advance()

    @property
    def done(self) -> bool:
        return self.index >= len(self.axes)

    def advance(self) -> None:
        self.index += 1
        if self.done:
            return
        ref = self.axes[self.index]
        self.size = ref.size(self.mesh)
        self.split_pre_size = ref.sub_axis.pre_size if ref.sub_axis is not None else None

    def current(self) -> AxisRef:
        """The rest of the current axis."""
        name = self.axes[self.index].name
        if self.split_pre_size is None:
            return AxisRef(name)
        return axis_refs.sub_axis(name, self.split_pre_size, self.size)

    def take_current(self) -> AxisRef:
        ref = self.current()
        self.advance()
        return ref

    def take_major(self, size: int) -> AxisRef:
        """The major `size` part of the current axis, leaving its rest current."""
        pre = self.split_pre_size if self.split_pre_size is not None else 1
        ref = axis_refs.sub_axis(self.axes[self.index].name, pre, size)
        self.split_pre_size = pre * size
        self.size //= size
        return ref

    def take_rest(self) -> list[AxisRef]:
        refs = []
        while not self.done:
            refs.append(self.take_current())
        return refs


def build_tensor_factor_shardings(
    mapping: TensorMapping,
    sharding: Optional[TensorSharding],
    factor_sizes: Sequence[int],
    mesh: Mesh,
) -> TensorFactorShardings:
    """Projects one tensor's sharding (None: no sharding, all dimensions open) onto its factors."""
    result = TensorFactorShardings()
    for dim, dim_factors in enumerate(mapping):
        dim_sharding = sharding.dims[dim] if sharding is not None else None
        axes = dim_sharding.axes if dim_sharding is not None else ()
        is_dim_closed = dim_sharding is not None and dim_sharding.is_closed
        cursor = _AxisCursor(axes, mesh)
        has_overflow_axes = False
        for position, factor_index in enumerate(dim_factors):
            factor_sharding = result.factor_index_to_sharding.setdefault(factor_index, FactorSharding())
            factor_sharding.is_minor_most = position == len(dim_factors) - 1
            if has_overflow_axes:
                # Only the factor right after one with overflow axes is kept, closed and empty.
                factor_sharding.is_closed = True
                break
            factor_sharding.is_closed = is_dim_closed
            if factor_sharding.is_minor_most:
                # The minor-most factor takes all remaining axes, divisible or not.
                factor_sharding.axis_refs.extend(cursor.take_rest())
                break
            remaining_factor_size = factor_sizes[factor_index]
            while not cursor.done:
                gcd = 1 if cursor.size == 1 else math.gcd(remaining_factor_size, cursor.size)
                if cursor.size != 1 and gcd == 1:
                    break
                if cursor.size > gcd:
                    factor_sharding.axis_refs.append(cursor.take_major(gcd))
                    remaining_factor_size //= gcd
                else:
                    remaining_factor_size //= cursor.size
                    factor_sharding.axis_refs.append(cursor.take_current())
            if remaining_factor_size > 1 and not cursor.done:
                # The rest of the factor and the current axis are coprime.
                has_overflow_axes = True
                factor_sharding.overflow_axes.extend(cursor.take_rest())
    if sharding is not None:
        result.replicated_axes = list(sharding.replicated)
        result.unreduced_axes = list(sharding.unreduced)
        result.reduction = sharding.reduction
    return result


@dataclass
class ShardingProjection:
    """The factor shardings of every operand and result of one op."""

    operands: list[TensorFactorShardings]
    results: list[TensorFactorShardings]

    @classmethod
    def build(
        cls,
        operand_shardings: Sequence[Optional[TensorSharding]],
        result_shardings: Sequence[Optional[TensorSharding]],
        rule: OpShardingRule,
        mesh: Mesh,
    ) -> ShardingProjection:
        return cls(
            [
                build_tensor_factor_shardings(mapping, sharding, rule.factor_sizes, mesh)
                for sharding, mapping in zip(operand_shardings, rule.operand_mappings, strict=True)
            ],
            [
                build_tensor_factor_shardings(mapping, sharding, rule.factor_sizes, mesh)
                for sharding, mapping in zip(result_shardings, rule.result_mappings, strict=True)
            ],
        )

    @property
    def num_operands(self) -> int:
        return len(self.operands)

    @property
    def num_results(self) -> int:
        return len(self.results)

    @property
    def tensors(self) -> list[TensorFactorShardings]:
        """Operands then results."""
        return self.operands + self.results

    def update_sharding(self, factor_index: int, new_axes: Sequence[AxisRef]) -> tuple[list[bool], list[bool]]:
        """Sets every tensor's sharding along the factor to `new_axes`, without overflow axes; returns which operands
        and results changed."""
        return (
            [tensor.update_sharding_axes(factor_index, new_axes) for tensor in self.operands],
            [tensor.update_sharding_axes(factor_index, new_axes) for tensor in self.results],
        )

    def greatest_common_prefix_axes(self, num_factors: int) -> list[list[AxisRef]]:
        """Per factor, the greatest common prefix of its axes in every tensor that has it."""
        common: list[Optional[list[AxisRef]]] = [None] * num_factors
        for tensor in self.tensors:
            for factor_index, sharding in tensor.factor_index_to_sharding.items():
                seen = common[factor_index]
                common[factor_index] = (
                    list(sharding.axis_refs)
                    if seen is None
                    else axis_refs.greatest_common_prefix_of_lists(seen, sharding.axis_refs)
                )
        return [axes if axes is not None else [] for axes in common]

    def expand_sharding(self, factor_index: int, new_axes: Sequence[AxisRef]) -> tuple[list[bool], list[bool]]:
        """Expands every tensor's sharding along the factor to `new_axes`; returns which operands and results changed."""
        return (
            [tensor.expand_sharding_axes(factor_index, new_axes) for tensor in self.operands],
            [tensor.expand_sharding_axes(factor_index, new_axes) for tensor in self.results],
        )


def distribute_axes_across_factors(
    shardings: Sequence[FactorSharding], factor_sizes: Sequence[int], axes: Sequence[AxisRef], mesh: Mesh
) -> None:
    """Hands `axes`, major first, to the factors of `shardings` (empty, in order): each axis goes to the first factor
    it shares a divisor with, split into sub-axes where it is bigger than what is left of that factor (its rest
    tried on the factors after it, then again from the first); axes no factor can take become overflow axes of the
    last factor (none when there are no factors, as for a scalar)."""
    if not shardings:
        return
    remaining = list(factor_sizes)
    cursor = _AxisCursor(axes, mesh)
    while not cursor.done:
        used = False
        for index, sharding in enumerate(shardings):
            if remaining[index] <= 1:
                continue
            gcd = math.gcd(remaining[index], cursor.size)
            if gcd == 1 and cursor.size != 1:
                continue
            used = True
            if cursor.size > gcd:
                axis_refs.add_axis_or_merge(sharding.axis_refs, cursor.take_major(gcd), mesh)
                remaining[index] //= gcd
                continue
            remaining[index] //= cursor.size
            axis_refs.add_axis_or_merge(sharding.axis_refs, cursor.take_current(), mesh)
            break
        if not used:
            for ref in cursor.take_rest():
                axis_refs.add_axis_or_merge(shardings[-1].overflow_axes, ref, mesh)
            break
