"""Which ops Shardy's rewrite driver erases when their results become unused (side-effect-free ops).

MLIR's greedy driver, which Shardy's propagation runs on, erases trivially
dead ops as it visits them. The Python bindings cannot ask an op for its
memory effects, so the side-effect-free ops are named here (checked against
jaxlib in test/py/propagation/test_dead_ops.py).
"""

from jaxlib.mlir import ir

# Ops with effects, or whose effects depend on nested ops, are never erased here.
_NEVER_ERASED = frozenset({
    "func.call",
    "sdy.sharding_constraint", "sdy.data_flow_edge", "sdy.manual_computation",
    "sdy.named_computation", "sdy.sharding_group", "sdy.propagation_barrier",
    "stablehlo.while", "stablehlo.case", "stablehlo.if", "stablehlo.optimization_barrier",
    "stablehlo.infeed", "stablehlo.outfeed", "stablehlo.send", "stablehlo.recv",
    "stablehlo.after_all", "stablehlo.create_token",
    "stablehlo.all_gather", "stablehlo.all_reduce", "stablehlo.all_to_all",
    "stablehlo.reduce_scatter", "stablehlo.collective_permute", "stablehlo.collective_broadcast",
    "stablehlo.rng",
})


def may_be_erased_when_unused(op: ir.Operation) -> bool:
    """True if the driver erases `op` as soon as none of its results is used."""
    return erased_when_unused(op, op.name, len(op.results), op.has_trait(ir.IsTerminatorTrait))


def erased_when_unused(op: ir.Operation, name: str, num_results: int, is_terminator: bool) -> bool:
    """`may_be_erased_when_unused` for a caller that already knows the op's name, result count and
    whether it is a terminator."""
    if not num_results or name in _NEVER_ERASED or is_terminator:
        return False
    if name == "stablehlo.custom_call":
        return "has_side_effect" not in op.attributes or not ir.BoolAttr(op.attributes["has_side_effect"]).value
    return name.startswith(("stablehlo.", "chlo.")) or name in ("sdy.constant", "sdy.reshard")
