"""One propagation step through one op: project its shardings onto the rule's factors, propagate, project back."""

from __future__ import annotations

from typing import Optional, Sequence

from pysdy.dialects.sdy import Mesh, OpShardingRule, TensorMapping, TensorSharding
from pysdy.passes.propagation.factor_propagation import (
    BasicFactorPropagation,
    DirectionAlongFactor,
    PropagationDirection,
)
from pysdy.passes.propagation.sharding_projection import (
    ShardingProjection,
    TensorFactorShardings,
)


def _has_no_axes(sharding: TensorSharding) -> bool:
    return not sharding.replicated and not sharding.unreduced and all(not d.axes for d in sharding.dims)


def _new_sharding(
    old: Optional[TensorSharding],
    tensor: TensorFactorShardings,
    mapping: TensorMapping,
    rule: OpShardingRule,
    mesh_name: str,
    mesh: Mesh,
) -> Optional[TensorSharding]:
    """The tensor's new sharding, or None when it is no update (equal, or empty where there was none)."""
    new = tensor.to_tensor_sharding(mapping, rule.factor_sizes, mesh_name, mesh)
    if (old is None and _has_no_axes(new)) or new == old:
        return None
    return new


def propagated_projection(
    operand_shardings: Sequence[Optional[TensorSharding]],
    result_shardings: Sequence[Optional[TensorSharding]],
    rule: OpShardingRule,
    mesh: Mesh,
    strategy: BasicFactorPropagation,
    direction_along_factor: DirectionAlongFactor,
    conservative: bool,
    op_name: Optional[str],
    is_elementwise: bool,
) -> tuple[ShardingProjection, list[bool], list[bool]]:
    """The op's sharding projection after the strategy propagated along it, and which operands and results changed.

    Factors the rule blocks propagation along get no direction.
    """
    projection = ShardingProjection.build(operand_shardings, result_shardings, rule, mesh)
    blocked = frozenset(rule.blocked_propagation_factors)

    def direction(factor: int) -> PropagationDirection:
        if factor in blocked:
            return PropagationDirection.NONE
        return direction_along_factor(factor)

    updated_operands, updated_results = strategy.propagate_factor_shardings(
        projection, direction, rule.factor_sizes, mesh, op_name, conservative, is_elementwise
    )
    return projection, updated_operands, updated_results


def propagate_through_op(
    operand_shardings: Sequence[Optional[TensorSharding]],
    result_shardings: Sequence[Optional[TensorSharding]],
    rule: OpShardingRule,
    mesh_name: str,
    mesh: Mesh,
    strategy: BasicFactorPropagation,
    direction_along_factor: DirectionAlongFactor,
    conservative: bool,
    op_name: Optional[str],
    is_elementwise: bool = False,
) -> tuple[list[Optional[TensorSharding]], list[Optional[TensorSharding]]]:
    """New shardings of the op's operands and results (None where unchanged), as Shardy's propagateTensorShardings.

    A sharding of None is no sharding (every dimension open). `is_elementwise` (sdy's
    isElementwise, see `pysdy.passes.propagation.elementwise`) is what the
    aggressive strategy needs to know of the op besides its name.
    """
    projection, updated_operands, updated_results = propagated_projection(
        operand_shardings, result_shardings, rule, mesh, strategy, direction_along_factor, conservative, op_name,
        is_elementwise,
    )
    new_operands = [
        _new_sharding(old, tensor, mapping, rule, mesh_name, mesh) if updated else None
        for old, tensor, mapping, updated in zip(
            operand_shardings, projection.operands, rule.operand_mappings, updated_operands
        )
    ]
    new_results = [
        _new_sharding(old, tensor, mapping, rule, mesh_name, mesh) if updated else None
        for old, tensor, mapping, updated in zip(
            result_shardings, projection.results, rule.result_mappings, updated_results
        )
    ]
    return new_operands, new_results
