"""Rule of stablehlo.reduce (variadic): kept dims pass through, reduced dims are reduction factors."""

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import NO_DIM, RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.reduce", reads_regions=False)
def reduce(op, conservative):
    reduced_dims = list(op.attributes["dimensions"])
    num_inputs = len(op.results)
    init_dims = [NO_DIM] * num_inputs  # the init values are scalars
    builder = RuleBuilder.for_op(op)
    result_dim = 0
    for input_dim, size in enumerate(shape_of(op.operands[0])):
        input_dims = [input_dim] * num_inputs
        if input_dim in reduced_dims:
            builder.add_factor(input_dims + init_dims, [NO_DIM] * num_inputs, size, FactorKind.REDUCTION)
        else:
            builder.add_factor(input_dims + init_dims, [result_dim] * num_inputs, size)
            result_dim += 1
    return builder.build()
