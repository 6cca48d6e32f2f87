"""Rules of the stablehlo collectives: pointwise, except that a dimension the collective resizes needs replication."""

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import NO_DIM, RuleBuilder, pointwise_rule, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


def _dim_in_each(dim: int, values) -> list[int]:
    """`dim` for every value that has that dimension, `NO_DIM` for the others."""
    return [dim if dim < len(shape_of(v)) else NO_DIM for v in values]


def _pointwise_with_resized_dims(op, resized_dims):
    """Like `pointwise_rule`, except that each dimension in `resized_dims` gets one
    factor in the operands and another in the results, sized on each side, both
    needing replication (the collective changes that dimension).
    """
    op = getattr(op, "operation", op)
    operands, results = list(op.operands), list(op.results)
    shape = shape_of(results[0]) if results else shape_of(operands[0])
    builder = RuleBuilder.for_op(op)
    for dim, size in enumerate(shape):
        if dim not in resized_dims:
            builder.add_factor(_dim_in_each(dim, operands), _dim_in_each(dim, results), size)
    no_operand_dims, no_result_dims = [NO_DIM] * len(operands), [NO_DIM] * len(results)
    for dim in dict.fromkeys(resized_dims):
        builder.add_factor(
            _dim_in_each(dim, operands), no_result_dims, shape_of(operands[0])[dim], FactorKind.NEED_REPLICATION
        )
        builder.add_factor(
            no_operand_dims, _dim_in_each(dim, results), shape_of(results[0])[dim], FactorKind.NEED_REPLICATION
        )
    return builder.build()


@rule_for(
    "stablehlo.all_reduce",
    "stablehlo.collective_broadcast",
    "stablehlo.collective_permute",
    "stablehlo.cross-replica-sum",
)
def shape_preserving_collective(op, conservative):
    return pointwise_rule(op)


@rule_for("stablehlo.all_gather")
def all_gather(op, conservative):
    return _pointwise_with_resized_dims(op, resized_dims=(op.all_gather_dim.value,))


@rule_for("stablehlo.reduce_scatter")
def reduce_scatter(op, conservative):
    return _pointwise_with_resized_dims(op, resized_dims=(op.scatter_dimension.value,))


@rule_for("stablehlo.all_to_all")
def all_to_all(op, conservative):
    return _pointwise_with_resized_dims(op, resized_dims=(op.split_dimension.value, op.concat_dimension.value))
