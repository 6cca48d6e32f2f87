"""Rule of stablehlo.reduce_window: one factor per dim, of the result's size; windowed dims are permutations."""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


def windowed_dims(op, rank: int) -> list[bool]:
    """Per dim, whether the window moves data across it: a window size or stride
    other than 1, or any padding. Dilations alone do not count."""

    def attr_values(name: str, default: int) -> list[int]:
        return list(op.attributes[name]) if name in op.attributes else [default] * rank

    sizes = attr_values("window_dimensions", 1)
    strides = attr_values("window_strides", 1)
    padding = [0] * (2 * rank)  # (low, high) per dim
    if "padding" in op.attributes:
        padding = list(ir.DenseIntElementsAttr(op.attributes["padding"]))
    return [
        sizes[dim] != 1 or strides[dim] != 1 or padding[2 * dim] != 0 or padding[2 * dim + 1] != 0
        for dim in range(rank)
    ]


@rule_for("stablehlo.reduce_window", reads_regions=False)
def reduce_window(op, conservative):
    # Every input and result shares the factor, sized by the result (the number
    # of windows). A windowed dim needs a permutation, and in conservative mode
    # propagation along it is blocked. Init values are scalars.
    result_shape = shape_of(op.results[0])
    builder = RuleBuilder.for_op(op)
    for dim, windowed in enumerate(windowed_dims(op, len(result_shape))):
        if windowed:
            builder.add_factor_to_all(dim, result_shape[dim], FactorKind.PERMUTATION, blocked=conservative)
        else:
            builder.add_factor_to_all(dim, result_shape[dim])
    return builder.build()
