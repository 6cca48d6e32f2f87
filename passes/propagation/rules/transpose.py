"""Rule of stablehlo.transpose: result dimension i is operand dimension permutation[i]."""

from pysdy.passes.propagation.rules.builder import RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.transpose")
def transpose(op, conservative):
    in_shape = shape_of(op.operand)
    builder = RuleBuilder.for_op(op)
    for out_dim, in_dim in enumerate(op.attributes["permutation"]):
        builder.add_factor([in_dim], [out_dim], in_shape[in_dim])
    return builder.build()
