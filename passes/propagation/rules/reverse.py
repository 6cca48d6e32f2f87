"""Rule of stablehlo.reverse: pointwise, with the reversed dimensions needing a permutation."""

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.reverse")
def reverse(op, conservative):
    reversed_dims = set(op.attributes["dimensions"])
    return (
        RuleBuilder.for_op(op)
        .add_pointwise(
            shape_of(op.result),
            lambda dim: FactorKind.PERMUTATION if dim in reversed_dims else FactorKind.PASS_THROUGH,
        )
        .build()
    )
