"""Drops the propagated shardings that jaxlib 0.10.2's XLA rejects before GSPMD partitioning, so it compiles the rest.

Two forms, both found with reproducers (test/py/gspmd/test_import_pipeline.py,
`test_xla_rejects_what_the_oracle_drops`), both failing the same way when XLA
exports its own propagation:
- a sharded `stablehlo.while` whose body returns one of its arguments
  unchanged: the HLO translation drops that loop-invariant element from the
  loop state but not from the sharding, and XLA aborts ("has N leaf nodes while
  this sharding has N+k", a RET_CHECK in hlo_sharding.cc, or a segfault);
- `stablehlo.case`/`stablehlo.if` branches returning one result with different
  shardings: HLO's verifier fails ("Inconsistent conditional sharding").
Without them the export gives such a loop XLA's default (replicated) sharding,
and the branch results' producers are left to GSPMD's own propagation.
"""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.passes.common.ir_walk import nested_ops_named
from pysdy.passes.common.value_shardings import get_sharding

_SHARDING = "sdy.sharding"


def _returned_values(region: ir.Region) -> list[ir.Value]:
    block = region.blocks[0]
    return list(block.operations[len(block.operations) - 1].operands)


def _has_loop_invariant_state(while_op: ir.Operation) -> bool:
    body = while_op.regions[1]
    return any(returned == argument for returned, argument in zip(_returned_values(body), body.blocks[0].arguments))


def _drop_differing_branch_shardings(branching_op: ir.Operation) -> int:
    dropped = 0
    for returned in zip(*(_returned_values(branch) for branch in branching_op.regions)):
        if len({str(get_sharding(value)) for value in returned}) == 1:
            continue
        for value in returned:
            if isinstance(value, ir.OpResult) and _SHARDING in value.owner.attributes:
                del value.owner.attributes[_SHARDING]
                dropped += 1
    return dropped


def drop_shardings_xla_rejects(module: ir.Module) -> int:
    """Removes those shardings from a propagated sdy module in place; returns how many ops lost theirs."""
    dropped = 0
    for op in nested_ops_named(module.operation, {"stablehlo.while", "stablehlo.case", "stablehlo.if"}):
        if op.name == "stablehlo.while":
            if _has_loop_invariant_state(op) and _SHARDING in op.attributes:
                del op.attributes[_SHARDING]
                dropped += 1
        else:
            dropped += _drop_differing_branch_shardings(op)
    return dropped
