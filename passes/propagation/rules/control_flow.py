"""Control-flow and data-flow ops get no rule: propagation passes through them along data-flow edges."""

from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.case", "stablehlo.if", "stablehlo.optimization_barrier", "stablehlo.while")
def data_flow_op(op, conservative):
    """None: each operand, block argument and result is tied to its counterparts by a data-flow edge instead."""
    return None
