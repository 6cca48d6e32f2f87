"""`sdy-sharding-constraint-to-reshard`: replace every `sdy.sharding_constraint` by an `sdy.reshard` with the same sharding and attributes."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.registry import FUNC, Pass, register_pass


def constraint_to_reshard(constraint: ir.Operation) -> None:
    attributes = {name: constraint.attributes[name] for name in constraint.attributes}
    with ir.InsertionPoint(constraint), constraint.location:
        reshard = ir.Operation.create(
            "sdy.reshard",
            results=[constraint.results[0].type],
            operands=[constraint.operands[0]],
            attributes=attributes,
        )
    constraint.results[0].replace_all_uses_with(reshard.results[0])
    constraint.erase()


@register_pass
@dataclasses.dataclass(frozen=True)
class ShardingConstraintToReshardPass(Pass):
    argument = "sdy-sharding-constraint-to-reshard"
    summary = "Converts ShardingConstraintOp into ReshardOp."
    anchor = FUNC

    def run(self, op: ir.Operation) -> None:
        for constraint in nested_ops(op, name="sdy.sharding_constraint"):
            constraint_to_reshard(constraint)
