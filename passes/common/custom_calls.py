"""The target of a `stablehlo.custom_call` (`@Sharding`, `@SPMDFullToShardShape`, ...), which is what passes ask of one."""

from __future__ import annotations

from jaxlib.mlir import ir


def custom_call_target(op: ir.Operation) -> str | None:
    """The op's `call_target_name`, or None if it is not a custom call."""
    if op.name != "stablehlo.custom_call":
        return None
    return ir.StringAttr(op.attributes["call_target_name"]).value
