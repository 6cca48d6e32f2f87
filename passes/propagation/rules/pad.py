"""Rule of stablehlo.pad: pointwise, padded dimensions need a permutation (blocked if conservative)."""

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.pad")
def pad(op, conservative):
    return (
        RuleBuilder.for_op(op)
        .add_pointwise_with_kind_for_mismatch(
            shape_of(op.operand),
            shape_of(op.result),
            FactorKind.PERMUTATION,
            mismatch_blocked=conservative,
        )
        .build()
    )
