"""Which ops Shardy's rewrite driver erases when their results become unused (effect-free ops).

MLIR's greedy driver, which Shardy's propagation runs on, erases trivially
dead ops as it visits them: unused ops with no effects of their own nor,
where their effects are recursive, in the ops nested in them (the sharding
graph marks those, `ShardingGraph._mark_erasable`). The Python bindings
cannot ask an op for its memory effects, so the ops with effects and those
with recursive effects are named here (checked against jaxlib in
test/py/propagation/test_dead_ops.py).
"""

from jaxlib.mlir import ir

# Ops with effects of their own: never erased, nor is an op with recursive effects they are nested in.
_EFFECTFUL = frozenset({
    "func.call",
    "sdy.sharding_constraint", "sdy.data_flow_edge", "sdy.func_data_flow_edge", "sdy.sharding_group",
    "stablehlo.infeed", "stablehlo.outfeed", "stablehlo.send", "stablehlo.recv",
    "stablehlo.after_all", "stablehlo.create_token",
    "stablehlo.all_gather", "stablehlo.all_reduce", "stablehlo.all_to_all",
    "stablehlo.reduce_scatter", "stablehlo.collective_permute", "stablehlo.collective_broadcast",
    "stablehlo.rng",
})

# Ops whose effects are those of the ops nested in them (MLIR's RecursiveMemoryEffects).
RECURSIVE_EFFECTS = frozenset({
    "sdy.manual_computation", "sdy.named_computation",
    "stablehlo.while", "stablehlo.case", "stablehlo.if",
    "stablehlo.reduce", "stablehlo.reduce_window", "stablehlo.select_and_scatter", "stablehlo.scatter",
    "stablehlo.sort", "stablehlo.map",
})

# Effect-free sdy and func ops (every other sdy op, the collectives among them, has effects).
_PURE_NON_STABLEHLO = frozenset({
    "sdy.constant", "sdy.reshard", "sdy.propagation_barrier", "sdy.return", "func.return",
})


def has_own_effects(op: ir.Operation, name: str) -> bool:
    """Whether `op` has memory effects apart from those of the ops nested in it."""
    if name in _EFFECTFUL:
        return True
    if name in RECURSIVE_EFFECTS or name in _PURE_NON_STABLEHLO:
        return False
    if name == "stablehlo.custom_call":
        return "has_side_effect" in op.attributes and ir.BoolAttr(op.attributes["has_side_effect"]).value
    return not name.startswith(("stablehlo.", "chlo."))

