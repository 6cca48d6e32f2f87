"""Shardy's choice of one sharding per factor for an op whose operands and results disagree (`findCommonAxes`).

Each factor gets axes that tensors already shard it with, picked greedily: a
factor-axes candidate weighs the total size of the tensors whose axes along
the factor it is a prefix of; the heaviest is fixed, then every other
candidate is cut so it no longer overlaps the axes just taken. Axes picked
for factors that need replication move to the batching factors, if they fit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from pysdy.dialects.sdy import AxisRef, FactorKind, Mesh, OpShardingRule
from pysdy.passes.propagation import axis_refs
from pysdy.passes.propagation.sharding_projection import ShardingProjection, TensorFactorShardings

AxesPerFactor = list[list[AxisRef]]

_PRECEDENCE = {
    FactorKind.PASS_THROUGH: 3,
    FactorKind.REDUCTION: 2,
    FactorKind.PERMUTATION: 1,
    FactorKind.NEED_REPLICATION: 0,
}


def axis_ref_key(ref: AxisRef) -> tuple:
    """Shardy's `AxisRefAttr::operator<`: by name, a full axis before its sub-axes, then by pre-size and size."""
    if ref.sub_axis is None:
        return (ref.name, 0, 0, 0)
    return (ref.name, 1, ref.sub_axis.pre_size, ref.sub_axis.size)


def axis_list_key(axes: Sequence[AxisRef]) -> tuple:
    """Shardy's `AxisListRef::operator<`: shorter lists first, then axis by axis."""
    return (len(axes), tuple(axis_ref_key(ref) for ref in axes))


def strict_prefix_of(first: Sequence[AxisRef], second: Sequence[AxisRef]) -> bool:
    """Whether `first` is a strict prefix of `second`, its last axis possibly a prefix of the axis there."""
    if not first:
        return bool(second)
    if len(first) > len(second) or any(a != b for a, b in zip(first[:-1], second)):
        return False
    if len(first) == len(second):
        return axis_refs.strict_prefix_of(first[-1], second[-1])
    return axis_refs.prefix_of(first[-1], second[len(first) - 1])


def truncate_without_overlap(axes: list[AxisRef], against: Sequence[AxisRef]) -> bool:
    """Cuts `axes` at its first axis overlapping `against`, keeping that axis's free prefix; returns whether it cut."""
    for index, ref in enumerate(axes):
        prefix = axis_refs.prefix_without_overlap_with_all(ref, against)
        if prefix != ref:
            del axes[index:]
            if prefix is not None:
                axes.append(prefix)
            return True
    return False


# --------------------------------------------------------------------------
# Sharding-rule queries
# --------------------------------------------------------------------------


def tensor_mappings(rule: OpShardingRule):
    return rule.operand_mappings + rule.result_mappings


def non_scalar_tensor_indices(rule: OpShardingRule) -> list[int]:
    return [index for index, mapping in enumerate(tensor_mappings(rule)) if len(mapping) != 0]


def has_dimensions_with_multiple_factors(rule: OpShardingRule) -> bool:
    return any(len(dim) > 1 for mapping in tensor_mappings(rule) for dim in mapping)


def factor_in_all_non_scalar_tensors(rule: OpShardingRule, factor: int) -> bool:
    return all(
        any(factor in dim for dim in mapping) for mapping in tensor_mappings(rule) if len(mapping) != 0
    )


def batching_factors(rule: OpShardingRule) -> list[int]:
    """Pass-through factors present in every non-scalar tensor."""
    return [
        factor
        for factor in range(rule.num_factors)
        if rule.factor_kind(factor) is FactorKind.PASS_THROUGH and factor_in_all_non_scalar_tensors(rule, factor)
    ]


# --------------------------------------------------------------------------
# Compatible shardings
# --------------------------------------------------------------------------


def compatible_factor_shardings(projection: ShardingProjection, rule: OpShardingRule) -> Optional[AxesPerFactor]:
    """The one sharding of each factor when all tensors agree, no axis shards two factors, and reductions stay
    off the results; else None."""
    common: AxesPerFactor = [[] for _ in range(rule.num_factors)]
    seen = [False] * rule.num_factors
    axes_of_seen_factors: list[AxisRef] = []
    for tensor in projection.tensors:
        for factor, factor_sharding in tensor.factor_index_to_sharding.items():
            if rule.factor_kind(factor) is FactorKind.NEED_REPLICATION:
                if factor_sharding.axis_refs:
                    return None
                continue
            if not seen[factor]:
                if any(axis_refs.overlaps(a, b) for a in factor_sharding.axis_refs for b in axes_of_seen_factors):
                    return None
                common[factor] = list(factor_sharding.axis_refs)
                axes_of_seen_factors.extend(factor_sharding.axis_refs)
                seen[factor] = True
            elif factor_sharding.axis_refs != common[factor]:
                return None
    for factor in rule.reduction_factors:
        for result in projection.results:
            for result_sharding in result.factor_index_to_sharding.values():
                if any(
                    axis_refs.overlaps(a, b) for a in common[factor] for b in result_sharding.axis_refs
                ):
                    return None
    return common


# --------------------------------------------------------------------------
# The greedy heuristic
# --------------------------------------------------------------------------


@dataclass
class _Candidate:
    factor: int
    axes: list[AxisRef]
    total_source_size: int
    sharding_size: int
    precedence: int

    def key(self) -> tuple:
        return (
            self.total_source_size,
            self.precedence,
            self.sharding_size,
            self.factor,
            axis_list_key(self.axes),
        )


class _CandidateBag:
    """Candidates for the next factor-axes pick, and the factors each factor waits for to be fully sharded."""

    def __init__(self, rule: OpShardingRule, mesh: Mesh):
        self.mesh = mesh
        self.candidates: list[_Candidate] = []
        self.best: Optional[_Candidate] = None
        self.dependencies: dict[int, set[int]] = {}
        for mapping in tensor_mappings(rule):
            for dim in mapping:
                for before, factor in zip(dim, dim[1:]):
                    self.dependencies.setdefault(factor, set()).add(before)

    def consider(self, candidate: _Candidate) -> None:
        if self.dependencies.get(candidate.factor):
            return
        if self.best is None or candidate.key() > self.best.key():
            self.best = _Candidate(**vars(candidate))

    def set_sharding_size(self, candidate: _Candidate, prefix: Sequence[AxisRef]) -> None:
        candidate.sharding_size = axis_refs.total_size(candidate.axes, self.mesh) // axis_refs.total_size(
            prefix, self.mesh
        )
        self.consider(candidate)

    def drop_dependencies_on(self, factor: int) -> None:
        for waits_for in self.dependencies.values():
            waits_for.discard(factor)


def _find_candidates(
    projection: ShardingProjection, rule: OpShardingRule, tensor_sizes: Sequence[int], mesh: Mesh
) -> _CandidateBag:
    """Every factor with every axis list some tensor shards it with (or a prefix of one), weighted by the sizes of the tensors it is a prefix of."""
    prefixes_per_factor: dict[int, set[tuple[AxisRef, ...]]] = {}
    for tensor in projection.tensors:
        for factor, factor_sharding in tensor.factor_index_to_sharding.items():
            axes = factor_sharding.axis_refs
            prefixes_per_factor.setdefault(factor, set()).update(tuple(axes[:end]) for end in range(1, len(axes) + 1))
    by_key: dict[tuple, _Candidate] = {}

    def count(factor: int, axes: tuple[AxisRef, ...], tensor_size: int) -> None:
        candidate = by_key.get((factor, axes))
        if candidate is None:
            by_key[(factor, axes)] = _Candidate(
                factor, list(axes), tensor_size, axis_refs.total_size(axes, mesh), _PRECEDENCE[rule.factor_kind(factor)]
            )
        else:
            candidate.total_source_size += tensor_size

    for tensor, tensor_size in zip(projection.tensors, tensor_sizes):
        for factor, factor_sharding in tensor.factor_index_to_sharding.items():
            axes = tuple(factor_sharding.axis_refs)
            if not axes:
                continue
            count(factor, axes, tensor_size)
            for prefix in prefixes_per_factor[factor]:
                if strict_prefix_of(prefix, axes):
                    count(factor, prefix, tensor_size)
    bag = _CandidateBag(rule, mesh)
    for candidate in by_key.values():
        bag.candidates.append(candidate)
        bag.consider(candidate)
    return bag


def _common_axes_heuristic(
    projection: ShardingProjection, rule: OpShardingRule, tensor_sizes: Sequence[int], mesh: Mesh
) -> AxesPerFactor:
    assigned: AxesPerFactor = [[] for _ in range(rule.num_factors)]
    bag = _find_candidates(projection, rule, tensor_sizes, mesh)
    while bag.best is not None:
        best = bag.best
        bag.best = None
        assigned[best.factor] = best.axes
        if axis_refs.total_size(best.axes, mesh) == rule.factor_sizes[best.factor]:
            bag.drop_dependencies_on(best.factor)
        remaining = []
        for candidate in bag.candidates:
            if candidate.factor == best.factor:
                if strict_prefix_of(best.axes, candidate.axes):
                    remaining.append(candidate)
                    bag.set_sharding_size(candidate, best.axes)
            elif truncate_without_overlap(candidate.axes, best.axes):
                if candidate.axes != assigned[candidate.factor]:
                    remaining.append(candidate)
                    bag.set_sharding_size(candidate, assigned[candidate.factor])
            else:
                remaining.append(candidate)
                bag.set_sharding_size(candidate, [])
        bag.candidates = remaining
    return assigned


# --------------------------------------------------------------------------
# Unary ops and need-replication factors
# --------------------------------------------------------------------------


def _has_sharded_permutation_factors(tensor: TensorFactorShardings, rule: OpShardingRule) -> bool:
    return any(
        rule.factor_kind(factor) is FactorKind.PERMUTATION and factor_sharding.axis_refs
        for factor, factor_sharding in tensor.factor_index_to_sharding.items()
    )


def _common_axes_on_unary_op(
    projection: ShardingProjection, rule: OpShardingRule, tensor_sizes: Sequence[int], mesh: Mesh
) -> AxesPerFactor:
    """Keeps the preferred tensor's sharding whole; the other keeps only what does not collide with it."""
    first, second = non_scalar_tensor_indices(rule)
    tensors = projection.tensors

    def preference(index: int) -> tuple[bool, int, int]:
        tensor = tensors[index]
        return (
            not _has_sharded_permutation_factors(tensor, rule),
            tensor_sizes[index],
            tensor.sharding_size(mesh),
        )

    preferred, other = (first, second) if preference(first) >= preference(second) else (second, first)
    preferred_shardings = tensors[preferred].factor_index_to_sharding
    common: AxesPerFactor = [[] for _ in range(rule.num_factors)]
    axes_in_preferred: list[AxisRef] = []
    for factor, factor_sharding in preferred_shardings.items():
        common[factor] = list(factor_sharding.axis_refs)
        axes_in_preferred.extend(factor_sharding.axis_refs)
    for factor, factor_sharding in tensors[other].factor_index_to_sharding.items():
        if factor not in preferred_shardings:
            common[factor] = list(factor_sharding.axis_refs)
            truncate_without_overlap(common[factor], axes_in_preferred)
    return common


def _distribute_to_batching_factors(
    to_distribute: list[AxisRef], rule: OpShardingRule, mesh: Mesh, common: AxesPerFactor
) -> None:
    for factor in batching_factors(rule):
        factor_size = rule.factor_sizes[factor]
        if factor_size == 0:
            continue
        sharded_size = axis_refs.total_size(common[factor], mesh)
        if factor_size % sharded_size != 0:
            continue
        capacity = factor_size // sharded_size
        while to_distribute:
            axis_size = to_distribute[0].size(mesh)
            if capacity % axis_size != 0:
                break
            axis_refs.add_axis_or_merge(common[factor], to_distribute[0], mesh)
            capacity //= axis_size
            to_distribute = to_distribute[1:]
        if not to_distribute:
            break


def find_common_axes(
    projection: ShardingProjection, rule: OpShardingRule, tensor_sizes: Sequence[int], mesh: Mesh
) -> AxesPerFactor:
    """The sharding every tensor of the op should have along each factor."""
    compatible = compatible_factor_shardings(projection, rule)
    if compatible is not None:
        return compatible
    if (
        len(non_scalar_tensor_indices(rule)) == 2
        and not rule.need_replication_factors
        and not has_dimensions_with_multiple_factors(rule)
    ):
        return _common_axes_on_unary_op(projection, rule, tensor_sizes, mesh)
    common = _common_axes_heuristic(projection, rule, tensor_sizes, mesh)
    for factor in rule.need_replication_factors:
        to_distribute, common[factor] = common[factor], []
        if factor_in_all_non_scalar_tensors(rule, factor) and to_distribute:
            _distribute_to_batching_factors(to_distribute, rule, mesh, common)
    return common
