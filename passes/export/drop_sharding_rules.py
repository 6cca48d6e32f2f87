"""`sdy-drop-sharding-rules`: remove the `sdy.sharding_rule` of every op, except custom (user-given) rules."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import OpShardingRule
from pysdy.passes.registry import FUNC, Pass, register_pass

SHARDING_RULE = "sdy.sharding_rule"


@register_pass
@dataclasses.dataclass(frozen=True)
class DropShardingRulesPass(Pass):
    argument = "sdy-drop-sharding-rules"
    summary = "Drops `OpShardingRuleAttr` from all registered ops."
    anchor = FUNC

    def run(self, op: ir.Operation) -> None:
        def drop_rule(nested):  # in the walk itself: dropping an attribute leaves the walk unaffected
            attributes = nested.operation.attributes
            if SHARDING_RULE in attributes and not OpShardingRule.from_attr(attributes[SHARDING_RULE]).is_custom:
                del attributes[SHARDING_RULE]
            return ir.WalkResult.ADVANCE

        op.walk(drop_rule, walk_order=ir.WalkOrder.POST_ORDER)
