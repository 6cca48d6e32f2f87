"""`xla-sdy-open-while-free-vars-sharding`: a fully open sharding constraint between each sharded free variable of a while loop and its uses inside the loop."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.dialects.sdy import TensorSharding
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.registry import FUNC, Pass, register_pass


@register_pass
@dataclasses.dataclass(frozen=True)
class OpenWhileFreeVarsShardingPass(Pass):
    argument = "xla-sdy-open-while-free-vars-sharding"
    summary = "Adds a fully open sharding constraint to free variables of while op that already have a sharding."
    anchor = FUNC

    def run(self, func: ir.Operation) -> None:
        for loop in nested_ops(func, name="stablehlo.while"):
            for value in _free_variables(loop):
                sharding = get_sharding(value)
                if sharding is None or sharding.rank == 0:
                    continue
                opened = TensorSharding.fully_open(sharding.mesh, sharding.rank)
                if opened == sharding:
                    continue
                constraint = sdy.ShardingConstraintOp(
                    value, opened.to_attr(), loc=value.location, ip=ir.InsertionPoint(loop)
                ).operation
                for use in list(value.uses):
                    if _is_nested_in(use.owner, loop):
                        use.owner.operands[use.operand_number] = constraint.results[0]


def _free_variables(loop: ir.Operation) -> list[ir.Value]:
    """The values defined outside `loop` that ops in its regions use, first use first (each region walked in
    post-order, operands in order), without repeats."""
    inside: set[ir.Value] = set()
    used: dict[ir.Value, None] = {}
    for region in loop.regions:
        for block in region.blocks:
            inside.update(block.arguments)
            for top in block.operations:
                for op in nested_ops(top.operation):
                    inside.update(op.results)
                    for region_of_op in op.regions:
                        for inner in region_of_op.blocks:
                            inside.update(inner.arguments)
                    for operand in op.operands:
                        used.setdefault(operand)
    return [value for value in used if value not in inside]


def _is_nested_in(op: ir.Operation, ancestor: ir.Operation) -> bool:
    parent = op.parent
    while parent is not None:
        if parent.operation == ancestor:
            return True
        parent = parent.parent
    return False
