"""Rule of stablehlo.fft: leading batch dimensions pass through, transformed ones need replication."""

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.fft")
def fft(op, conservative):
    in_shape = shape_of(op.operand)
    out_shape = shape_of(op.result)
    num_batch_dims = len(in_shape) - len(op.attributes["fft_length"])
    builder = RuleBuilder.for_op(op)
    for dim, size in enumerate(in_shape):
        if dim < num_batch_dims:
            builder.add_factor_to_all(dim, size)
        elif dim < len(in_shape) - 1:
            builder.add_factor_to_all(dim, size, FactorKind.NEED_REPLICATION)
        else:
            # RFFT and IRFFT change the size of the last dimension: no propagation through it.
            truncated = in_shape[-1] != out_shape[-1]
            builder.add_factor_to_all(dim, size, FactorKind.NEED_REPLICATION, blocked=truncated)
    return builder.build()
