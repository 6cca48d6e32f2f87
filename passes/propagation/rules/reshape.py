"""Rule of stablehlo.reshape: split both shapes into the common sub-factors of their dimensions.

Walking the operand and result dimensions major to minor, the next factor is
the gcd of what is left of the current operand and result dimensions, shared
by both. When that gcd is 1 the two sides diverge: each gets factors of its
own until their running products meet again (from jaxlib 0.12 on, the two
diverging dimensions first share one permutation factor, and the factors of one
side alone need replication). Size-1 dimensions get a factor of their own and
are skipped.
"""

import math

from pysdy import versions
from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import NO_DIM, RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


def _behind_factor(remaining: int, behind_product: int, ahead_product: int, gcd: int) -> int:
    """The next factor for the side whose factor product lags behind the other's."""
    if ahead_product % behind_product == 0 and remaining % (ahead_product // behind_product) == 0:
        return ahead_product // behind_product  # Catches up with the other side exactly.
    if remaining > gcd:
        return remaining // gcd  # Leaves the gcd to share on the next step.
    return remaining


@rule_for("stablehlo.reshape")
def reshape(op, conservative):
    in_shape = shape_of(op.operand)
    out_shape = shape_of(op.result)
    if math.prod(in_shape) == 0:
        return None
    line = versions.installed()
    replicate, pass_through = FactorKind.NEED_REPLICATION, FactorKind.PASS_THROUGH
    size_one_kind = replicate if line.reshape_size_one_dims_need_replication else pass_through
    one_side_kind = replicate if line.reshape_permutes_diverging_dims else pass_through
    builder = RuleBuilder.for_op(op)
    in_dim = out_dim = 0
    # Products of the dimensions entered so far, and of the factors given out so far.
    in_dims_product = out_dims_product = 1
    in_factors_product = out_factors_product = 1
    while in_dim < len(in_shape) or out_dim < len(out_shape):
        if in_dim < len(in_shape) and in_shape[in_dim] == 1:
            builder.add_factor([in_dim], [NO_DIM], 1, size_one_kind)
            in_dim += 1
            continue
        if out_dim < len(out_shape) and out_shape[out_dim] == 1:
            builder.add_factor([NO_DIM], [out_dim], 1, size_one_kind)
            out_dim += 1
            continue
        if in_dim < len(in_shape) and in_dims_product == in_factors_product:
            in_dims_product *= in_shape[in_dim]
        if out_dim < len(out_shape) and out_dims_product == out_factors_product:
            out_dims_product *= out_shape[out_dim]
        in_remaining = in_dims_product // in_factors_product
        out_remaining = out_dims_product // out_factors_product
        gcd = math.gcd(in_remaining, out_remaining)

        if in_factors_product == out_factors_product:
            if gcd > 1:
                builder.add_factor([in_dim], [out_dim], gcd)
                in_factors_product *= gcd
                out_factors_product *= gcd
            elif line.reshape_permutes_diverging_dims:
                builder.add_factor([in_dim], [out_dim], in_remaining, FactorKind.PERMUTATION)
                in_factors_product *= in_remaining
                out_factors_product *= out_remaining
            else:
                builder.add_factor([in_dim], [NO_DIM], in_remaining)
                in_factors_product *= in_remaining
                builder.add_factor([NO_DIM], [out_dim], out_remaining)
                out_factors_product *= out_remaining
        elif in_factors_product < out_factors_product:
            factor = _behind_factor(in_remaining, in_factors_product, out_factors_product, gcd)
            builder.add_factor([in_dim], [NO_DIM], factor, one_side_kind)
            in_factors_product *= factor
        else:
            factor = _behind_factor(out_remaining, out_factors_product, in_factors_product, gcd)
            builder.add_factor([NO_DIM], [out_dim], factor, one_side_kind)
            out_factors_product *= factor

        if in_dim < len(in_shape) and in_dims_product == in_factors_product:
            in_dim += 1
        if out_dim < len(out_shape) and out_dims_product == out_factors_product:
            out_dim += 1
    return builder.build()
