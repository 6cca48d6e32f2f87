"""`sdy-populate-op-sharding-rules`: write every op's sharding rule onto it as `sdy.sharding_rule`."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.propagation.rules import get_or_create_rule
from pysdy.passes.registry import FUNC, Pass, option, register_pass


@register_pass
@dataclasses.dataclass(frozen=True)
class PopulateOpShardingRulesPass(Pass):
    argument = "sdy-populate-op-sharding-rules"
    summary = "Populates all registered ops with an `OpShardingRuleAttr`."
    anchor = FUNC

    conservative_propagation: bool = option(
        False, "whether to disallow rules that can propagate non-divisible sharding axes"
    )

    def run(self, op: ir.Operation) -> None:
        def visit(nested):
            get_or_create_rule(nested, self.conservative_propagation, set_on_op=True)
            return ir.WalkResult.ADVANCE

        op.walk(visit)
