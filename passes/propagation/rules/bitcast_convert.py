"""Rule of stablehlo.bitcast_convert: pointwise, but for the extra minor dimension of the narrower type."""

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import NO_DIM, RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.bitcast_convert")
def bitcast_convert(op, conservative):
    in_shape = shape_of(op.operand)
    out_shape = shape_of(op.result)
    builder = RuleBuilder.for_op(op)
    builder.add_pointwise(min(in_shape, out_shape, key=len))
    # The dimension that splits a wide element into narrow ones must stay whole.
    if len(in_shape) < len(out_shape):
        builder.add_factor([NO_DIM], [len(out_shape) - 1], out_shape[-1], FactorKind.NEED_REPLICATION)
    elif len(in_shape) > len(out_shape):
        builder.add_factor([len(in_shape) - 1], [NO_DIM], in_shape[-1], FactorKind.NEED_REPLICATION)
    return builder.build()
