"""Rule of stablehlo.select_and_scatter: unwindowed dims are shared; windowed dims split operand from source."""

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import NO_DIM, RuleBuilder, shape_of
from pysdy.passes.propagation.rules.reduce_window import windowed_dims
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.select_and_scatter")
def select_and_scatter(op, conservative):
    # Operands are (operand, source, init_value); the result is like the operand.
    # Along a windowed dim the source (one element per window) gets a factor of
    # its own that needs replication, and the operand/result one that needs a
    # permutation; both are blocked in conservative mode.
    operand_shape = shape_of(op.operands[0])
    source_shape = shape_of(op.operands[1])
    builder = RuleBuilder.for_op(op)
    for dim, windowed in enumerate(windowed_dims(op, len(operand_shape))):
        if windowed:
            builder.add_factor([NO_DIM, dim, NO_DIM], [NO_DIM], source_shape[dim],
                               FactorKind.NEED_REPLICATION, blocked=conservative)
            builder.add_factor([dim, NO_DIM, NO_DIM], [dim], operand_shape[dim],
                               FactorKind.PERMUTATION, blocked=conservative)
        else:
            builder.add_factor_to_all(dim, operand_shape[dim])
    return builder.build()
