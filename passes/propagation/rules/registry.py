"""Which op sharding rule an op gets: op name -> rule function, filled in by the family modules.

A family module registers its rule functions with `@rule_for("stablehlo.x", ...)`;
a rule function takes the op and the `conservative` flag and returns an
`OpShardingRule`, or None when the op gets no rule. Importing
`pysdy.passes.propagation.rules` loads every family.
"""

from __future__ import annotations

from typing import Callable, Optional

from jaxlib.mlir import ir

from pysdy.dialects.sdy import OpShardingRule

SHARDING_RULE_ATTR = "sdy.sharding_rule"

RuleFunction = Callable[[ir.OpView, bool], Optional[OpShardingRule]]

_RULES: dict[str, RuleFunction] = {}


def rule_for(*op_names: str) -> Callable[[RuleFunction], RuleFunction]:
    """Registers the decorated function as the rule of each op in `op_names`."""

    def register(function: RuleFunction) -> RuleFunction:
        for name in op_names:
            if name in _RULES:
                raise ValueError(f"a sharding rule for {name} is already registered")
            _RULES[name] = function
        return function

    return register


def registered_op_names() -> list[str]:
    return sorted(_RULES)


def create_rule(op, conservative: bool = False) -> OpShardingRule | None:
    """The rule Shardy's registry gives `op`, ignoring any rule already on it."""
    function = _RULES.get(op.operation.name)
    if function is None:
        return None
    return function(op.operation.opview, conservative)


def existing_rule(op) -> OpShardingRule | None:
    """The rule written on `op` as `sdy.sharding_rule`, if any."""
    attributes = op.operation.attributes
    if SHARDING_RULE_ATTR not in attributes:
        return None
    return OpShardingRule.from_attr(attributes[SHARDING_RULE_ATTR])


def get_or_create_rule(op, conservative: bool = False, set_on_op: bool = False) -> OpShardingRule | None:
    """The rule on `op` if it has one, else the registry's (written onto the op if `set_on_op`)."""
    rule = existing_rule(op)
    if rule is not None:
        return rule
    rule = create_rule(op, conservative)
    if rule is not None and set_on_op:
        op.operation.attributes[SHARDING_RULE_ATTR] = rule.to_attr()
    return rule
