"""Rule of stablehlo.sort: batch dims pass through, the sort dim needs replication."""

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.sort", reads_regions=False)
def sort(op, conservative):
    # Shardy compares the raw attribute, so a negative (or absent, -1) sort
    # dimension matches no dimension and every factor passes through.
    sort_dim = op.attributes["dimension"].value if "dimension" in op.attributes else -1
    shape = shape_of(op.operands[0])
    # With no other dim worth sharding, propagating along the sort dim is blocked.
    only_sort_dim_matters = all(dim == sort_dim or size == 1 for dim, size in enumerate(shape))
    builder = RuleBuilder.for_op(op)
    for dim, size in enumerate(shape):
        if dim == sort_dim:
            builder.add_factor_to_all(dim, size, FactorKind.NEED_REPLICATION, blocked=only_sort_dim_matters)
        else:
            builder.add_factor_to_all(dim, size)
    return builder.build()
