"""Rules of stablehlo.dot and stablehlo.dot_general: batching, non-contracting and contracting factors."""

from jaxlib.mlir.dialects import stablehlo

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import NO_DIM, RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.dot_general")
def dot_general(op, conservative):
    numbers = stablehlo.DotDimensionNumbers(op.attributes["dot_dimension_numbers"])
    lhs_batching = list(numbers.lhs_batching_dimensions)
    rhs_batching = list(numbers.rhs_batching_dimensions)
    lhs_contracting = list(numbers.lhs_contracting_dimensions)
    rhs_contracting = list(numbers.rhs_contracting_dimensions)
    lhs_shape, rhs_shape = shape_of(op.operands[0]), shape_of(op.operands[1])
    builder = RuleBuilder.for_op(op)

    # The result is laid out as: batching dims, lhs free dims, rhs free dims.
    result_dim = 0
    for lhs_dim, rhs_dim in zip(lhs_batching, rhs_batching):
        builder.add_factor([lhs_dim, rhs_dim], [result_dim], lhs_shape[lhs_dim])
        result_dim += 1
    for lhs_dim, size in enumerate(lhs_shape):
        if lhs_dim not in lhs_contracting and lhs_dim not in lhs_batching:
            builder.add_factor([lhs_dim, NO_DIM], [result_dim], size)
            result_dim += 1
    for rhs_dim, size in enumerate(rhs_shape):
        if rhs_dim not in rhs_contracting and rhs_dim not in rhs_batching:
            builder.add_factor([NO_DIM, rhs_dim], [result_dim], size)
            result_dim += 1
    for lhs_dim, rhs_dim in zip(lhs_contracting, rhs_contracting):
        builder.add_factor([lhs_dim, rhs_dim], [NO_DIM], lhs_shape[lhs_dim], FactorKind.REDUCTION)
    return builder.build()


@rule_for("stablehlo.dot")
def dot(op, conservative):
    """Vector or matrix operands: the lhs's last dim contracts with the rhs's first."""
    lhs_shape, rhs_shape = shape_of(op.operands[0]), shape_of(op.operands[1])
    lhs_is_matrix, rhs_is_matrix = len(lhs_shape) == 2, len(rhs_shape) == 2
    builder = RuleBuilder.for_op(op)
    if lhs_is_matrix:
        builder.add_factor([0, NO_DIM], [0], lhs_shape[0])
    if rhs_is_matrix:
        builder.add_factor([NO_DIM, 1], [1 if lhs_is_matrix else 0], rhs_shape[1])
    builder.add_factor([1 if lhs_is_matrix else 0, 0], [NO_DIM], rhs_shape[0], FactorKind.REDUCTION)
    return builder.build()
