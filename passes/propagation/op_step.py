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


# Ops with MLIR's `Elementwise` or StableHLO's `BroadcastingElementwise` trait.
ELEMENTWISE_OPS = frozenset({
    "stablehlo.abs", "stablehlo.add", "stablehlo.and", "stablehlo.atan2", "stablehlo.cbrt",
    "stablehlo.ceil", "stablehlo.clamp", "stablehlo.compare", "stablehlo.complex",
    "stablehlo.convert", "stablehlo.cosine", "stablehlo.count_leading_zeros", "stablehlo.divide",
    "stablehlo.exponential", "stablehlo.exponential_minus_one", "stablehlo.floor",
    "stablehlo.imag", "stablehlo.is_finite", "stablehlo.log", "stablehlo.log_plus_one",
    "stablehlo.logistic", "stablehlo.maximum", "stablehlo.minimum", "stablehlo.multiply",
    "stablehlo.negate", "stablehlo.not", "stablehlo.or", "stablehlo.popcnt", "stablehlo.power",
    "stablehlo.real", "stablehlo.reduce_precision", "stablehlo.remainder",
    "stablehlo.round_nearest_afz", "stablehlo.round_nearest_even", "stablehlo.rsqrt",
    "stablehlo.select", "stablehlo.shift_left", "stablehlo.shift_right_arithmetic",
    "stablehlo.shift_right_logical", "stablehlo.sign", "stablehlo.sine", "stablehlo.sqrt",
    "stablehlo.subtract", "stablehlo.tan", "stablehlo.tanh", "stablehlo.xor",
})


def is_elementwise(op_name: str, operand_shape: Sequence[int], result_shape: Sequence[int]) -> bool:
    """Shardy's isElementwise: an elementwise op, or a bitcast_convert that keeps the shape."""
    if op_name == "stablehlo.bitcast_convert":
        return tuple(operand_shape) == tuple(result_shape)
    return op_name in ELEMENTWISE_OPS


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

    A sharding of None is no sharding (every dimension open). Factors the rule
    blocks propagation along get no direction. `is_elementwise` (see
    `is_elementwise`) is what the aggressive strategy needs to know of the op
    besides its name.
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
