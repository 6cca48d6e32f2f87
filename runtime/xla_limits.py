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
"""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.passes.common.ir_walk import nested_ops_named


def _returned(region: ir.Region) -> list[ir.Value]:
    block = region.blocks[0]
    return list(block.operations[len(block.operations) - 1].operands)


def _where(op: ir.Operation) -> str:
    return str(op.location)


def drop_shardings_xla_rejects(module: ir.Module, attribute: str) -> list[str]:
    """Removes the `attribute` shardings of (a) and (b) from `module`; one note per removal, naming the op."""
    notes = []
    for op in nested_ops_named(module.operation, {"stablehlo.while", "stablehlo.case", "stablehlo.if"}):
        if op.name == "stablehlo.while":
            body_args = op.regions[1].blocks[0].arguments
            if attribute in op.attributes and any(v == a for v, a in zip(_returned(op.regions[1]), body_args)):
                del op.attributes[attribute]
                notes.append(
                    f"dropped the sharding of the stablehlo.while at {_where(op)}: its body returns a loop-invariant "
                    "operand, and jaxlib 0.10.2's XLA crashes on such a sharded loop (tuple sharding longer than "
                    "the loop state); XLA's partitioner chooses the loop's sharding"
                )
            continue
        for values in zip(*(_returned(branch) for branch in op.regions)):
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
