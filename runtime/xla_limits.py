"""Shardings that jaxlib 0.10.2's XLA cannot compile, dropped before the hand-off and reported, never hidden.

(a) A sharded `stablehlo.while` whose body returns one of its arguments
unchanged: the conversion to HLO lifts that loop-invariant operand out of the
loop tuple but keeps its element of the while's tuple sharding, and XLA then
fails a RET_CHECK in hlo_sharding.cc ("has N leaf nodes while this sharding
has M") and crashes the process. Without the sharding, XLA's partitioner
decides the loop's sharding itself.
(b) `stablehlo.case` / `stablehlo.if` branches whose returned values have
different shardings: HLO's verifier rejects the conditional ("Inconsistent
conditional sharding among instructions").
(c) On the sdy route, `sdy.reshard`: jaxlib's compile path removes the meshes
before it exports reshards, and then fails with "'sdy.reshard' op unknown
mesh". After propagation a reshard to a sharding pins the same sharding on its
result as an `sdy.sharding_constraint`, which that path does export, so it
becomes one.
(d) On the sdy route, an `ApproxTopK` custom call (`jax.lax.approx_max_k`)
that is sharded or whose results feed sharded ops: jaxlib's compile path then
gives the call an `mhlo.sharding`, which the conversion of ApproxTopK to HLO
rejects ("mhlo.sharding is not a supported attribute for ApproxTopK"). Those
shardings are dropped; XLA's Shardy partitioner propagates again, so it gives
them back after that conversion.
"""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.passes.common.custom_calls import custom_call_target
from pysdy.passes.common.data_flow import terminator_operands
from pysdy.passes.common.ir_walk import nested_ops_named


def _where(op: ir.Operation) -> str:
    return str(op.location)


def reshards_as_constraints(module: ir.Module) -> list[str]:
    """Replaces each `sdy.reshard` by an `sdy.sharding_constraint` to the same sharding (c); one note for all."""
    reshards = nested_ops_named(module.operation, {"sdy.reshard"})
    for reshard in reshards:
        with ir.InsertionPoint(reshard), reshard.location:
            constraint = ir.Operation.create(
                "sdy.sharding_constraint",
                results=[reshard.results[0].type],
                operands=[reshard.operands[0]],
                attributes={"sharding": reshard.attributes["sharding"]},
            )
        reshard.results[0].replace_all_uses_with(constraint.results[0])
        reshard.erase()
    if not reshards:
        return []
    return [
        f"made {len(reshards)} sdy.reshard op(s) sdy.sharding_constraint ops to the same shardings: jaxlib 0.10.2's "
        "compile path drops the meshes before exporting reshards and then rejects them"
    ]


def drop_shardings_xla_rejects(module: ir.Module, attribute: str) -> list[str]:
    """Removes the `attribute` shardings of (a) and (b) from `module`; one note per removal, naming the op."""
    notes = []
    for op in nested_ops_named(module.operation, {"stablehlo.while", "stablehlo.case", "stablehlo.if"}):
        if op.name == "stablehlo.while":
            body_args = op.regions[1].blocks[0].arguments
            if attribute in op.attributes and any(v == a for v, a in zip(terminator_operands(op.regions[1]), body_args)):
                del op.attributes[attribute]
                notes.append(
                    f"dropped the sharding of the stablehlo.while at {_where(op)}: its body returns a loop-invariant "
                    "operand, and jaxlib 0.10.2's XLA crashes on such a sharded loop (tuple sharding longer than "
                    "the loop state); XLA's partitioner chooses the loop's sharding"
                )
            continue
        for values in zip(*(terminator_operands(branch) for branch in op.regions)):
            owners = [v.owner for v in values if isinstance(v, ir.OpResult)]
            shardings = {str(o.attributes[attribute]) if attribute in o.attributes else None for o in owners}
            if len(shardings) < 2:
                continue
            for owner in owners:
                if attribute in owner.attributes:
                    del owner.attributes[attribute]
            notes.append(
                f"dropped the shardings of the values the branches of the {op.name} at {_where(op)} return: they "
                "differ, which XLA's HLO verifier rejects (inconsistent conditional sharding)"
            )
    return notes


# Custom calls whose conversion to HLO rejects any sharding (d).
_UNSHARDABLE_CUSTOM_CALLS = {"ApproxTopK"}


def drop_custom_call_shardings_xla_rejects(module: ir.Module) -> list[str]:
    """Removes the `sdy.sharding`s of (d): of each such custom call and of the ops using its results; one note per
    custom call, naming it."""
    notes = []
    for op in nested_ops_named(module.operation, {"stablehlo.custom_call"}):
        target = custom_call_target(op)
        if target not in _UNSHARDABLE_CUSTOM_CALLS:
            continue
        users = [use.owner.operation for result in op.results for use in result.uses]
        sharded = [o for o in [op, *users] if "sdy.sharding" in o.attributes]
        for owner in sharded:
            del owner.attributes["sdy.sharding"]
        if sharded:
            notes.append(
                f"dropped the shardings of the {target} custom call at {_where(op)} and its users: jaxlib's XLA "
                "rejects any sharding on it before partitioning; XLA's Shardy propagation gives them back"
            )
    return notes
