"""Rule of stablehlo.batch_norm_inference: pointwise, with the per-feature operands on the feature dim.

Shardy's registry knows no batch_norm_training or batch_norm_grad (it warns that
they are unknown), so they are deliberately left unregistered here too.
"""

from pysdy.passes.propagation.rules.builder import NO_DIM, RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.batch_norm_inference")
def batch_norm_inference(op, conservative):
    # Operands: (operand, scale, offset, mean, variance); the last four are 1-D
    # over the feature dim.
    feature_dim = op.attributes["feature_index"].value
    builder = RuleBuilder.for_op(op)
    for dim, size in enumerate(shape_of(op.operands[0])):
        per_feature_dim = 0 if dim == feature_dim else NO_DIM
        builder.add_factor([dim] + [per_feature_dim] * 4, [dim], size)
    return builder.build()
