"""Which ops Shardy treats as elementwise (for op priorities and the aggressive strategy).

Shardy asks MLIR for the Elementwise / BroadcastingElementwise traits, which
the Python bindings cannot query, so the ops carrying them are named here.
"""

from jaxlib.mlir import ir

from pysdy.passes.propagation.rules.builder import shape_of

# Ops with MLIR's Elementwise or StableHLO's BroadcastingElementwise trait, and
# the sdy ops Shardy treats as elementwise for scheduling.
ELEMENTWISE_OPS = frozenset({
    "stablehlo.abs", "stablehlo.add", "stablehlo.and", "stablehlo.atan2",
    "stablehlo.cbrt", "stablehlo.ceil", "stablehlo.clamp", "stablehlo.compare",
    "stablehlo.complex", "stablehlo.convert", "stablehlo.cosine",
    "stablehlo.count_leading_zeros", "stablehlo.divide", "stablehlo.exponential",
    "stablehlo.exponential_minus_one", "stablehlo.floor", "stablehlo.imag",
    "stablehlo.is_finite", "stablehlo.log", "stablehlo.log_plus_one",
    "stablehlo.logistic", "stablehlo.map", "stablehlo.maximum", "stablehlo.minimum",
    "stablehlo.multiply", "stablehlo.negate", "stablehlo.not", "stablehlo.or",
    "stablehlo.popcnt", "stablehlo.power", "stablehlo.real",
    "stablehlo.reduce_precision", "stablehlo.remainder",
    "stablehlo.round_nearest_afz", "stablehlo.round_nearest_even",
    "stablehlo.rsqrt", "stablehlo.select", "stablehlo.shift_left",
    "stablehlo.shift_right_arithmetic", "stablehlo.shift_right_logical",
    "stablehlo.sign", "stablehlo.sine", "stablehlo.sqrt", "stablehlo.subtract",
    "stablehlo.tan", "stablehlo.tanh", "stablehlo.xor",
    "sdy.propagation_barrier", "sdy.sharding_constraint", "sdy.reshard",
})


def is_elementwise(op: ir.Operation, name: str | None = None) -> bool:
    """Whether Shardy treats `op` as elementwise; `name` is the op's name, when the caller has it."""
    name = op.name if name is None else name
    if name in ELEMENTWISE_OPS:
        return True
    if name == "stablehlo.bitcast_convert":
        # Shapes are equal exactly when the bit widths are.
        return shape_of(op.operands[0]) == shape_of(op.results[0])
    return False
