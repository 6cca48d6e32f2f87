"""`sdy-remove-sharding-groups`: erase every `sdy.sharding_group` once propagation no longer needs them."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.registry import MODULE, Pass, register_pass


@register_pass
@dataclasses.dataclass(frozen=True)
class RemoveShardingGroupsPass(Pass):
    argument = "sdy-remove-sharding-groups"
    summary = "Removes ShardingGroupOps after propagation."
    anchor = MODULE

    def run(self, op: ir.Operation) -> None:
        for group in nested_ops(op, name="sdy.sharding_group"):
            group.erase()
