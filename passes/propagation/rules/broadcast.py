"""Rule of stablehlo.broadcast_in_dim: each result dimension is either an operand dimension or new."""

from pysdy.passes.propagation.rules.builder import NO_DIM, RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.broadcast_in_dim")
def broadcast_in_dim(op, conservative):
    in_shape = shape_of(op.operand)
    out_shape = shape_of(op.result)
    broadcast_dims = op.attributes["broadcast_dimensions"]
    out_dim_to_in_dim = {out_dim: in_dim for in_dim, out_dim in enumerate(broadcast_dims)}
    builder = RuleBuilder.for_op(op)
    for out_dim, out_size in enumerate(out_shape):
        in_dim = out_dim_to_in_dim.get(out_dim, NO_DIM)
        if in_dim != NO_DIM and in_shape[in_dim] == 1 and out_size != 1:
            # A size-1 operand dimension stretched to `out_size`: the two are unrelated.
            builder.add_factor([in_dim], [NO_DIM], 1)
            in_dim = NO_DIM
        builder.add_factor([in_dim], [out_dim], out_size)
    return builder.build()
