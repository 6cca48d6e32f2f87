"""Rule of stablehlo.rng_bit_generator: the state is replicated and unrelated to the generated bits."""

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import NO_DIM, RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.rng_bit_generator")
def rng_bit_generator(op, conservative):
    builder = RuleBuilder.for_op(op)
    for dim, size in enumerate(shape_of(op.initial_state)):
        builder.add_factor([dim], [dim, NO_DIM], size, FactorKind.NEED_REPLICATION, blocked=True)
    for dim, size in enumerate(shape_of(op.output)):
        builder.add_factor([NO_DIM], [NO_DIM, dim], size)
    return builder.build()
