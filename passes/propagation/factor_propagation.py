"""Shardy's factor propagation strategies: which axes each factor of one op gets, on its projection.

`BasicFactorPropagation` gives each factor the axes all tensors agree on (the
compatible major axes) and drops the first axis that conflicts. The
`AggressiveFactorPropagation` resolves conflicts instead: factors whose source
tensor is largest go first, and each tensor takes what it can.
"""

from __future__ import annotations

import enum
import math
from typing import Callable, Optional, Sequence

from pysdy.dialects.sdy import AxisRef, Mesh
from pysdy.passes.propagation import axis_refs
from pysdy.passes.propagation.axis_refs import PrefixStatus
from pysdy.passes.propagation.sharding_projection import (
    FactorSharding,
    ShardingProjection,
    TensorFactorShardings,
)


class PropagationDirection(enum.IntEnum):
    """Which way shardings may flow through an op (sdy's `PropagationDirection`)."""

    NONE = 0
    FORWARD = 1
    BACKWARD = 2
    BOTH = 3


def union_of_directions(a: PropagationDirection, b: PropagationDirection) -> PropagationDirection:
    if {a, b} == {PropagationDirection.FORWARD, PropagationDirection.BACKWARD}:
        return PropagationDirection.BOTH
    return max(a, b)


def intersection_of_directions(a: PropagationDirection, b: PropagationDirection) -> PropagationDirection:
    if {a, b} == {PropagationDirection.FORWARD, PropagationDirection.BACKWARD}:
        return PropagationDirection.NONE
    return min(a, b)


DirectionAlongFactor = Callable[[int], PropagationDirection]
# (axis, size of the axes before it) -> the part of the axis that can stay, or None.
RemoveConflicts = Callable[[AxisRef, int], Optional[AxisRef]]


def _compatible_major_axes_of_pair(
    old_axes: Sequence[AxisRef], new_axes: Sequence[AxisRef], can_expand: bool
) -> tuple[list[AxisRef], bool]:
    """The axes `old_axes` and `new_axes` agree on, major first, and whether later tensors may still extend them.

    Without `can_expand` the result is at most `old_axes`.
    """
    result: list[AxisRef] = []
    old_index = new_index = 0
    while old_index < len(old_axes) and new_index < len(new_axes):
        old_ref, new_ref = old_axes[old_index], new_axes[new_index]
        old_index += 1
        new_index += 1
        if new_ref.name != old_ref.name:
            return result, False
        if new_ref.sub_axis == old_ref.sub_axis:
            result.append(new_ref)
        elif axis_refs.prefix_of(new_ref, old_ref):
            if new_index < len(new_axes):
                # The next new axis cannot continue the old one (it would have been merged).
                result.append(new_ref)
                return result, False
            result.append(old_ref)
        elif axis_refs.prefix_of(old_ref, new_ref):
            if not can_expand or old_index < len(old_axes):
                result.append(old_ref)
                return result, False
            result.append(new_ref)
        else:
            return result, False
    result.extend(old_axes[old_index:])
    if can_expand:
        result.extend(new_axes[new_index:])
    return result, can_expand


class BasicFactorPropagation:
    """Propagates, per factor, the compatible major axes of all tensors, up to the first conflict."""

    # ---- conflicts -------------------------------------------------------

    @staticmethod
    def compatible_prefix_no_conflicts_across_factors(
        axis: AxisRef, factor_index_to_sharding: dict[int, FactorSharding], factor_index: int
    ) -> Optional[AxisRef]:
        """The prefix of `axis` not used by any other factor of the tensor (axes or overflow axes)."""
        result: Optional[AxisRef] = axis
        for other_index, sharding in factor_index_to_sharding.items():
            if other_index == factor_index:
                continue
            result = axis_refs.prefix_without_overlap_with_all(result, sharding.overflow_axes)
            if result is None:
                return None
            result = axis_refs.prefix_without_overlap_with_all(result, sharding.axis_refs)
            if result is None:
                return None
        return result

    @staticmethod
    def compatible_prefix_no_conflicts_within_factor(
        axis: AxisRef,
        tensor: TensorFactorShardings,
        factor_sharding: FactorSharding,
        prev_sharded_size: int,
        factor_size: int,
        mesh: Mesh,
    ) -> Optional[AxisRef]:
        """The prefix of `axis` the tensor can have along this factor, after `prev_sharded_size` worth of axes.

        It may not overlap the tensor's replicated or unreduced axes.
        """
        result = axis_refs.prefix_without_overlap_with_all(axis, tensor.replicated_axes)
        if result is None:
            return None
        result = axis_refs.prefix_without_overlap_with_all(result, tensor.unreduced_axes)
        if result is None:
            return None
        factor_axes = factor_sharding.axis_refs
        if any(axis_refs.contains(existing, result) for existing in factor_axes):
            return result
        # Adding `result` needs an open factor without overflow axes, and, unless
        # minor-most, a size that still divides the factor.
        if not factor_sharding.is_closed and not factor_sharding.overflow_axes:
            if factor_sharding.is_minor_most:
                return result
            if factor_size % prev_sharded_size == 0:
                axis_size = result.size(mesh)
                gcd = math.gcd(factor_size // prev_sharded_size, axis_size)
                if gcd == axis_size:
                    return result
                if gcd != 1:
                    return axis_refs.sub_axis(result.name, axis_refs.pre_size(result), gcd)
        # The factor keeps its last axis if that is a prefix of `result`.
        if factor_axes and axis_refs.prefix_of(factor_axes[-1], result):
            return factor_axes[-1]
        return None

    @staticmethod
    def truncate_axes_by_removing_conflicts(
        axes: list[AxisRef], remove_conflicts: RemoveConflicts, mesh: Mesh, conservative: bool
    ) -> None:
        """Cuts `axes` at the first axis that conflicts, keeping the part of it that does not."""
        prev_sharded_size = 1
        for index, axis in enumerate(axes):
            new_axis = remove_conflicts(axis, prev_sharded_size)
            if new_axis is None or (conservative and new_axis.sub_axis is not None):
                del axes[index:]
                return
            if new_axis != axis:
                axes[index] = new_axis
                del axes[index + 1:]
                return
            prev_sharded_size *= new_axis.size(mesh)

    def compatible_prefix_in_tensor(
        self,
        axis: AxisRef,
        tensor: TensorFactorShardings,
        factor_index: int,
        prev_sharded_size: int,
        factor_size: int,
        mesh: Mesh,
    ) -> Optional[AxisRef]:
        result = self.compatible_prefix_no_conflicts_across_factors(
            axis, tensor.factor_index_to_sharding, factor_index
        )
        if result is None:
            return None
        factor_sharding = tensor.factor_index_to_sharding.get(factor_index)
        if factor_sharding is None:
            # Without the factor, only other factors' axes conflict.
            return result
        return self.compatible_prefix_no_conflicts_within_factor(
            result, tensor, factor_sharding, prev_sharded_size, factor_size, mesh
        )

    def compatible_prefix(
        self,
        axis: AxisRef,
        projection: ShardingProjection,
        factor_index: int,
        prev_sharded_size: int,
        factor_size: int,
        mesh: Mesh,
    ) -> Optional[AxisRef]:
        result: Optional[AxisRef] = axis
        for tensor in projection.tensors:
            result = self.compatible_prefix_in_tensor(
                result, tensor, factor_index, prev_sharded_size, factor_size, mesh
            )
            if result is None:
                return None
        return result

    # ---- compatible axes --------------------------------------------------

    @staticmethod
    def compatible_major_axes(
        projection: ShardingProjection, factor_index: int, direction: PropagationDirection
    ) -> list[AxisRef]:
        """The axes the tensors agree on along the factor, ignoring conflicts.

        Only the tensors on the side propagated from may extend them; the other
        side only cuts them short.
        """
        if direction == PropagationDirection.NONE:
            return []
        if direction == PropagationDirection.BACKWARD:
            first, second = projection.results, projection.operands
        else:
            first, second = projection.operands, projection.results
        result: list[AxisRef] = []
        can_expand = True
        for tensor in first:
            factor_sharding = tensor.factor_index_to_sharding.get(factor_index)
            if factor_sharding is not None:
                result, can_expand = _compatible_major_axes_of_pair(
                    result, factor_sharding.axis_refs, can_expand
                )
        if direction != PropagationDirection.BOTH:
            can_expand = False
        for tensor in second:
            factor_sharding = tensor.factor_index_to_sharding.get(factor_index)
            if factor_sharding is not None:
                result, can_expand = _compatible_major_axes_of_pair(
                    result, factor_sharding.axis_refs, can_expand
                )
        return result

    def compatible_major_sharding_axes(
        self,
        projection: ShardingProjection,
        factor_index: int,
        direction: PropagationDirection,
        factor_size: int,
        mesh: Mesh,
        conservative: bool,
    ) -> list[AxisRef]:
        axes = self.compatible_major_axes(projection, factor_index, direction)
        self.truncate_axes_by_removing_conflicts(
            axes,
            lambda axis, prev_sharded_size: self.compatible_prefix(
                axis, projection, factor_index, prev_sharded_size, factor_size, mesh
            ),
            mesh,
            conservative,
        )
        return axes

    def propagate_factor_shardings(
        self,
        projection: ShardingProjection,
        direction_along_factor: DirectionAlongFactor,
        factor_sizes: Sequence[int],
        mesh: Mesh,
        op_name: Optional[str],
        conservative: bool,
        is_elementwise: bool = False,
    ) -> tuple[list[bool], list[bool]]:
        """Expands every factor to its compatible axes; returns which operands and results changed.

        `op_name` is part of the shared signature only: of the op, Shardy's
        strategies only ask whether it is elementwise (`is_elementwise`).
        """
        updated_operands = [False] * projection.num_operands
        updated_results = [False] * projection.num_results
        for factor_index, factor_size in enumerate(factor_sizes):
            axes = self.compatible_major_sharding_axes(
                projection, factor_index, direction_along_factor(factor_index), factor_size, mesh, conservative
            )
            operands, results = projection.expand_sharding(factor_index, axes)
            updated_operands = [a or b for a, b in zip(updated_operands, operands)]
            updated_results = [a or b for a, b in zip(updated_results, results)]
        return updated_operands, updated_results


class AggressiveFactorPropagation(BasicFactorPropagation):
    """Propagates each factor's compatible axes tensor by tensor, resolving conflicts between factors.

    Within a tensor, factors are taken in order of their source tensor (the
    largest tensor whose axes along the factor are a prefix of the compatible
    ones), so the axes of bigger tensors win conflicts.
    """

    def propagated_factor_sharding(
        self,
        factor_index: int,
        tensor: TensorFactorShardings,
        axes_per_factor: Sequence[Sequence[AxisRef]],
        factor_sizes: Sequence[int],
        mesh: Mesh,
        conservative: bool,
    ) -> list[AxisRef]:
        """The axes this tensor gets along the factor, or [] if it gains nothing."""
        factor_sharding = tensor.factor_index_to_sharding.get(factor_index)
        if factor_sharding is None:
            return []
        new_axes = list(axes_per_factor[factor_index])
        self.truncate_axes_by_removing_conflicts(
            new_axes,
            lambda axis, prev_sharded_size: self.compatible_prefix_no_conflicts_within_factor(
                axis, tensor, factor_sharding, prev_sharded_size,
                factor_sizes[factor_index], mesh,
            ),
            mesh,
            conservative,
        )
        if not axis_refs.is_strict_prefix(factor_sharding.axis_refs, new_axes):
            return []
        # Checked against the tensor as updated for the factors before this one.
        self.truncate_axes_by_removing_conflicts(
            new_axes,
            lambda axis, _: self.compatible_prefix_no_conflicts_across_factors(
                axis, tensor.factor_index_to_sharding, factor_index
            ),
            mesh,
            conservative,
        )
        return new_axes

    def propagate_factor_shardings(
        self,
        projection: ShardingProjection,
        direction_along_factor: DirectionAlongFactor,
        factor_sizes: Sequence[int],
        mesh: Mesh,
        op_name: Optional[str],
        conservative: bool,
        is_elementwise: bool = False,
    ) -> tuple[list[bool], list[bool]]:
        """Expands the results, then the operands, each factor by factor; returns which changed.

        `is_elementwise` (sdy's isElementwise of the op) prefers the most
        sharded factors, and stops axes from flowing sideways between operands
        when the results do not take them.
        """
        axes_per_factor = [
            self.compatible_major_axes(projection, factor_index, direction_along_factor(factor_index))
            for factor_index in range(len(factor_sizes))
        ]
        if not any(axes_per_factor):
            return [False] * projection.num_operands, [False] * projection.num_results

        source_tensors = _source_tensor_per_factor(projection, factor_sizes, axes_per_factor)

        def preference(factor_index: int) -> tuple[int, int, int, int]:
            index, size = source_tensors[factor_index]
            sharded_size = axis_refs.total_size(axes_per_factor[factor_index], mesh) if is_elementwise else 0
            return (-size, -sharded_size, index, factor_index)

        order = sorted(range(len(factor_sizes)), key=preference)

        def propagate_to(tensor: TensorFactorShardings, is_operand: bool) -> bool:
            updated = False
            for factor_index in order:
                new_axes = self.propagated_factor_sharding(
                    factor_index, tensor, axes_per_factor, factor_sizes, mesh, conservative
                )
                if not new_axes:
                    continue
                if is_operand and is_elementwise:
                    new_axes = _without_sideways_axes(projection, factor_index, new_axes)
                updated |= tensor.expand_sharding_axes(factor_index, new_axes)
            return updated

        updated_results = [propagate_to(tensor, False) for tensor in projection.results]
        updated_operands = [propagate_to(tensor, True) for tensor in projection.operands]
        return updated_operands, updated_results


def _source_tensor_per_factor(
    projection: ShardingProjection,
    factor_sizes: Sequence[int],
    axes_per_factor: Sequence[Sequence[AxisRef]],
) -> list[tuple[int, int]]:
    """Per factor, (index, size) of the largest tensor whose axes are a prefix of the factor's, else (-1, -1)."""
    sources = [(-1, -1)] * len(factor_sizes)
    for tensor_index, tensor in enumerate(projection.tensors):
        tensor_size = 1
        for factor_index in tensor.factor_index_to_sharding:
            tensor_size *= factor_sizes[factor_index]
        for factor_index, sharding in tensor.factor_index_to_sharding.items():
            axes = axes_per_factor[factor_index]
            is_source = bool(axes) and (
                axis_refs.axis_list_prefix_status(axes, sharding.axis_refs) is not PrefixStatus.NOT_A_PREFIX
            )
            if is_source and tensor_size > sources[factor_index][1]:
                sources[factor_index] = (tensor_index, tensor_size)
    return sources


def _without_sideways_axes(
    projection: ShardingProjection, factor_index: int, new_axes: list[AxisRef]
) -> list[AxisRef]:
    """Cuts `new_axes` back to a result's axes along the factor when those are a strict prefix of them."""
    for result in projection.results:
        factor_sharding = result.factor_index_to_sharding.get(factor_index)
        if factor_sharding is not None and axis_refs.is_strict_prefix(factor_sharding.axis_refs, new_axes):
            new_axes = factor_sharding.axis_refs
    return new_axes

