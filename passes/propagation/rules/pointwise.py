"""Rules of elementwise ops: every operand and result shares one factor per dimension."""

from pysdy.passes.propagation.rules.builder import pointwise_rule
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for(
    "sdy.sharding_constraint",
    "stablehlo.abs", "stablehlo.add", "stablehlo.and", "stablehlo.atan2",
    "stablehlo.cbrt", "stablehlo.ceil", "stablehlo.count_leading_zeros",
    "stablehlo.compare", "stablehlo.complex", "stablehlo.convert",
    "stablehlo.cosine", "stablehlo.divide", "stablehlo.exponential",
    "stablehlo.exponential_minus_one", "stablehlo.floor", "stablehlo.imag",
    "stablehlo.is_finite", "stablehlo.log_plus_one", "stablehlo.log",
    "stablehlo.logistic", "stablehlo.maximum", "stablehlo.minimum",
    "stablehlo.multiply", "stablehlo.negate", "stablehlo.not", "stablehlo.or",
    "stablehlo.popcnt", "stablehlo.power", "stablehlo.real",
    "stablehlo.reduce_precision", "stablehlo.remainder",
    "stablehlo.round_nearest_even",
    "stablehlo.round_nearest_afz", "stablehlo.rsqrt", "stablehlo.shift_left",
    "stablehlo.shift_right_arithmetic", "stablehlo.shift_right_logical",
    "stablehlo.sign", "stablehlo.sine", "stablehlo.sqrt", "stablehlo.subtract",
    "stablehlo.tan", "stablehlo.tanh", "stablehlo.xor",
)
def elementwise(op, conservative):
    return pointwise_rule(op)
