"""Which op sharding rule an op gets: op name -> rule function, filled in by the family modules.

A family module registers its rule functions with `@rule_for("stablehlo.x", ...)`;
a rule function takes the op and the `conservative` flag and returns an
`OpShardingRule`, or None when the op gets no rule. Importing
`pysdy.passes.propagation.rules` loads every family.
"""

from __future__ import annotations

from typing import Callable, Optional

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import OpShardingRule
from pysdy.passes.diagnostics import emit_warning, warnings_are_dropped

SHARDING_RULE_ATTR = "sdy.sharding_rule"

RuleFunction = Callable[[ir.OpView, bool], Optional[OpShardingRule]]

_RULES: dict[str, RuleFunction] = {}
# Ops with regions whose rule reads only types and attributes, never the regions.
_RULES_IGNORING_REGIONS: set[str] = set()
# Ops whose rule reads the ops that define their operands, not only types and attributes.
_RULES_READING_PRODUCERS: set[str] = set()

# Ops Shardy knows and deliberately gives no rule: propagation handles them
# separately (data-flow ops such as while, case and optimization_barrier) or
# they need none (constants, tokens, meshes). Terminators are known too. Every
# other op without a rule is "unknown" and warned about once.
KNOWN_WITHOUT_RULE = frozenset({
    "builtin.module", "func.func", "func.call",
    "sdy.constant", "sdy.data_flow_edge", "sdy.func_data_flow_edge",
    "sdy.manual_computation", "sdy.mesh", "sdy.named_computation",
    "sdy.propagation_barrier", "sdy.reshard", "sdy.sharding_group",
    "stablehlo.after_all", "stablehlo.case", "stablehlo.constant",
    "stablehlo.create_token", "stablehlo.get_tuple_element", "stablehlo.infeed",
    "stablehlo.iota", "stablehlo.optimization_barrier", "stablehlo.outfeed",
    "stablehlo.partition_id", "stablehlo.recv", "stablehlo.send", "stablehlo.while",
    *(("stablehlo.if",) if versions.installed().if_is_data_flow_op else ()),
})


def rule_for(
    *op_names: str, reads_regions: bool = True, reads_producers: bool = False
) -> Callable[[RuleFunction], RuleFunction]:
    """Registers the decorated function as the rule of each op in `op_names`.

    `reads_regions=False` promises the rule depends only on the op's name,
    operand and result types and attributes, so ops alike in those may share it.
    `reads_producers=True` says it also depends on the ops defining the operands.
    """

    def register(function: RuleFunction) -> RuleFunction:
        for name in op_names:
            if name in _RULES:
                raise ValueError(f"a sharding rule for {name} is already registered")
            _RULES[name] = function
            if not reads_regions:
                _RULES_IGNORING_REGIONS.add(name)
            if reads_producers:
                _RULES_READING_PRODUCERS.add(name)
        return function

    return register


def rule_reads_regions(op_name: str) -> bool:
    """Whether the rule of `op_name` may read the op's regions (True when unknown)."""
    return op_name not in _RULES_IGNORING_REGIONS


def rule_reads_producers(op_name: str) -> bool:
    """Whether the rule of `op_name` depends on the ops defining its operands."""
    return op_name in _RULES_READING_PRODUCERS


def registered_op_names() -> list[str]:
    return sorted(_RULES)


def create_rule(op, conservative: bool = False) -> OpShardingRule | None:
    """The rule Shardy's registry gives `op`, ignoring any rule already on it."""
    operation = op.operation
    function = _RULES.get(operation.name)
    if function is None:
        if operation.name not in KNOWN_WITHOUT_RULE and not operation.has_trait(ir.IsTerminatorTrait):
            _warn_unknown_op_once(operation)
        return None
    return function(operation.opview, conservative)


_warned_about_unknown_op = False


def _warn_unknown_op_once(op: ir.Operation) -> None:
    """Like Shardy, warn about the first unknown op a process meets, and only that one."""
    global _warned_about_unknown_op
    if not _warned_about_unknown_op and not warnings_are_dropped():
        _warned_about_unknown_op = True
        emit_warning(op.location, f"op '{op.name}' is unknown to SDY sharding rule registry")


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
