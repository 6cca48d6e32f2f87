"""Rules of stablehlo.select and stablehlo.clamp: pointwise; scalar pred, min or max take no part."""

from pysdy.passes.propagation.rules.builder import pointwise_rule
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.select", "stablehlo.clamp")
def select_or_clamp(op, conservative):
    return pointwise_rule(op)
