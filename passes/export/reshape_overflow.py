"""The full version's sharding of a reshape whose axes do not split evenly over its factors
(Shardy's processReshapeWithOverflowAxes).

The axes of the more sharded side (operand or result, counting overflow
axes) are handed again to the factors of each side, factor by factor across
all dimensions; each factor then keeps what both sides agree on. Since jax 0.12
a reshape whose two shardings would split its elements alike if every
dimension divided evenly is left as it is (`sdy-resolve-permutation-factors`
reshards it later).
"""

from __future__ import annotations

import math
from typing import Optional

from pysdy import versions
from pysdy.dialects.sdy import AxisRef, Mesh, OpShardingRule, TensorMapping, TensorSharding
from pysdy.passes.export.reshard_ir import is_equivalent
from pysdy.passes.propagation import axis_refs
from pysdy.passes.propagation.sharding_projection import (
    FactorSharding,
    ShardingProjection,
    TensorFactorShardings,
    distribute_axes_across_factors,
)


class UnshardableReshapeError(ValueError):
    """Writing the redistributed axes back needs a factor sharding that the projection left out."""


def _axes_by_factor(tensor: TensorFactorShardings, num_factors: int) -> list[AxisRef]:
    """The tensor's axes and overflow axes, factor by factor in factor order."""
    axes: list[AxisRef] = []
    for factor in range(num_factors):
        sharding = tensor.factor_index_to_sharding.get(factor)
        if sharding is not None:
            axes += sharding.axis_refs + sharding.overflow_axes
    return axes


def _redistribute(
    tensor: TensorFactorShardings, mapping: TensorMapping, rule: OpShardingRule, axes: list[AxisRef], mesh: Mesh
) -> None:
    """Gives `axes` to the tensor's factors afresh. A projection leaves out the factors of a dimension past the one
    right after a factor with overflow axes: what they would get is dropped, as Shardy's C++ writes it past the end
    of its factor map, where nothing reads it unless the write-back reaches them (see `_check_written_back_factors`)."""
    factors = [factor for dim_factors in mapping for factor in dim_factors]
    shardings = [FactorSharding() for _ in factors]
    distribute_axes_across_factors(shardings, [rule.factor_sizes[f] for f in factors], axes, mesh)
    for factor, sharding in zip(factors, shardings):
        kept = tensor.factor_index_to_sharding.get(factor)
        if kept is not None:
            kept.axis_refs, kept.overflow_axes = sharding.axis_refs, sharding.overflow_axes


def _check_written_back_factors(
    tensor: TensorFactorShardings, mapping: TensorMapping, rule: OpShardingRule, mesh: Mesh
) -> None:
    """Writing factor shardings back reads a dimension's factors up to the first not fully sharded one: all must be
    there (Shardy's C++ reads past the end of its factor map and crashes)."""
    for dim_factors in mapping:
        for factor in dim_factors:
            sharding = tensor.factor_index_to_sharding.get(factor)
            if sharding is None:
                raise UnshardableReshapeError(f"factor {factor} is read back but has no factor sharding")
            if sharding.overflow_axes or axis_refs.total_size(sharding.axis_refs, mesh) < rule.factor_sizes[factor]:
                break


def _element_blocks(
    sharding: TensorSharding, mapping: TensorMapping, rule: OpShardingRule, mesh: Mesh
) -> list[tuple[int, AxisRef]]:
    """Each axis of the sharding with the number of blocks the tensor's row-major elements are in before it splits
    them (the dimensions before its own, then the axes before it in its dimension), consecutive sub-axes merged:
    what the sharding does to the elements when every dimension divides evenly."""
    blocks: list[tuple[int, AxisRef]] = []
    before_dim = 1
    for dim_sharding, dim_factors in zip(sharding.dims, mapping):
        before = before_dim
        for ref in dim_sharding.axes:
            last_before, last_ref = blocks[-1] if blocks else (0, None)
            follows_last = last_ref is not None and last_before * last_ref.size(mesh) == before
            if follows_last and axis_refs.can_merge(last_ref, ref):
                blocks[-1] = (last_before, axis_refs.merge(last_ref, ref, mesh))
            else:
                blocks.append((before, ref))
            before *= ref.size(mesh)
        before_dim *= math.prod(rule.factor_sizes[factor] for factor in dim_factors)
    return blocks


def _split_alike(
    operand_sharding: Optional[TensorSharding],
    result_sharding: Optional[TensorSharding],
    rule: OpShardingRule,
    mesh: Mesh,
) -> bool:
    """Whether the operand and result shardings split the elements alike as if every dimension divided evenly, with
    the same replicated axes."""
    if operand_sharding is None or result_sharding is None or operand_sharding.replicated != result_sharding.replicated:
        return False
    return _element_blocks(operand_sharding, rule.operand_mappings[0], rule, mesh) == _element_blocks(
        result_sharding, rule.result_mappings[0], rule, mesh
    )


def reshape_common_axes(
    projection: ShardingProjection,
    operand_sharding: Optional[TensorSharding],
    result_sharding: Optional[TensorSharding],
    rule: OpShardingRule,
    mesh_name: str,
    mesh: Mesh,
) -> tuple[list[list[AxisRef]], bool, bool]:
    """Settles the projection on one sharding per factor; returns it and whether the operand and the result change
    (neither, from jax 0.12, where the two shardings split the elements alike).

    Raises `UnshardableReshapeError` where Shardy's C++ reads a factor sharding that does not exist (and crashes).
    """
    if versions.installed().explicit_reshards_keep_reshapes_split_alike and _split_alike(
        operand_sharding, result_sharding, rule, mesh
    ):
        return projection.greatest_common_prefix_axes(rule.num_factors), False, False
    operand, result = projection.operands[0], projection.results[0]
    preferred = operand if operand.sharding_size(mesh) >= result.sharding_size(mesh) else result
    axes = _axes_by_factor(preferred, rule.num_factors)
    _redistribute(operand, rule.operand_mappings[0], rule, axes, mesh)
    _redistribute(result, rule.result_mappings[0], rule, axes, mesh)
    _check_written_back_factors(operand, rule.operand_mappings[0], rule, mesh)
    _check_written_back_factors(result, rule.result_mappings[0], rule, mesh)

    def operand_now() -> TensorSharding:
        return operand.to_tensor_sharding(rule.operand_mappings[0], rule.factor_sizes, mesh_name, mesh)

    def result_now() -> TensorSharding:
        return result.to_tensor_sharding(rule.result_mappings[0], rule.factor_sizes, mesh_name, mesh)

    # What the two sides' shardings, written back to dimensions, share per factor.
    written_back = ShardingProjection.build([operand_now()], [result_now()], rule, mesh)
    common = written_back.greatest_common_prefix_axes(rule.num_factors)
    for factor, factor_axes in enumerate(common):
        projection.update_sharding(factor, factor_axes)
    return common, not is_equivalent(operand_sharding, operand_now()), not is_equivalent(result_now(), result_sharding)
