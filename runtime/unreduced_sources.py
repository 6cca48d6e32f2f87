"""A check before the GSPMD hand-off that every unreduced axis comes from partial values, never from replicated copies.

An axis in a value's `unreduced` set says each device holds a partial value
and the true value is their sum. A reduction (a dot or reduce whose reduction
factor is sharded along the axis) makes such partials, and ops on partials
keep them. An op that makes an axis unreduced from operands that are all
replicated along it (a `stablehlo.convert` of a replicated argument pinned
`unreduced`, a reshard from replicated to unreduced) needs every device but
one to hold zeros: XLA's own route builds that (`sdy.replicated_to_unreduced`,
a manual computation), but XLA's GSPMD partitioner, given the exported
`{unreduced}` sharding, keeps the replicated copies, so the later reduction
counts the value once per device. pysdy refuses such a module.

Not caught: an op that mixes partial and replicated operands (`u + r` with `u`
unreduced and `r` replicated along the axis).
"""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.dialects.sdy import AxisRef, TensorSharding
from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.diagnostics import warnings_dropped
from pysdy.passes.propagation.axis_refs import overlaps
from pysdy.passes.propagation.rules.registry import create_rule
from pysdy.runtime.errors import RuntimeInputError


class UnreducedFromReplicatedError(RuntimeInputError):
    """The refusal, with the op's location and the message apart (a pass reports it there)."""

    def __init__(self, location: ir.Location, message: str):
        super().__init__(f"{location}: error: {message}")
        self.location = location
        self.message = message


def refuse_unreduced_from_replicated(module: ir.Module) -> None:
    """Raises RuntimeInputError at the first op that makes an axis unreduced from operands replicated along it."""
    for op in nested_ops(module.operation):
        with warnings_dropped():  # reading rules again must not warn about unknown ops a second time
            judged = _results_and_partial_axes(op)
        for index, result, partial in judged:
            if result is None:
                continue
            made = [ref for ref in result.unreduced if not any(overlaps(ref, source) for source in partial)]
            if not made:
                continue
            axes = ", ".join(str(ref) for ref in made)
            what = f"result {index} of @{_func_name(op)}" if op.name == "func.return" else f"result of {op.name}"
            raise UnreducedFromReplicatedError(
                op.location,
                f"the {what} is unreduced along {axes}, but its operands are replicated along those axes: XLA's "
                "GSPMD partitioner would keep a full copy on every device and a later reduction would count the "
                "value once per device; pysdy does not build the zeroing (sdy.replicated_to_unreduced) that XLA's "
                "Shardy route inserts",
            )


def _func_name(ret: ir.Operation) -> str:
    return ir.StringAttr(ret.parent.attributes["sym_name"]).value


def _unreduced_axes(value: ir.Value) -> list[AxisRef]:
    sharding = get_sharding(value)
    return list(sharding.unreduced) if sharding is not None else []


def _results_and_partial_axes(op: ir.Operation) -> list[tuple[int, TensorSharding | None, list[AxisRef]]]:
    """For each result of `op` (a function's for its return): its sharding, and the axes along which what it is
    computed from holds partial values (its operands' unreduced axes, and the axes the op's reduction factors are
    sharded along). Ops without a sharding rule (data-flow ops, constants) are not judged."""
    if op.name == "func.return":
        results = func_attrs.result_shardings(op.parent)
        return [(i, result, _unreduced_axes(v)) for i, (result, v) in enumerate(zip(results, op.operands))]
    if op.name == "sdy.reshard":
        return [(0, get_sharding(op.results[0]), _unreduced_axes(op.operands[0]))]
    rule = create_rule(op) if any(isinstance(v.type, ir.RankedTensorType) for v in op.operands) else None
    if rule is None:
        return []
    partial: list[AxisRef] = []
    for operand, mapping in zip(op.operands, rule.operand_mappings):
        sharding = get_sharding(operand)
        if sharding is None:
            continue
        partial.extend(sharding.unreduced)
        for dim, factors in zip(sharding.dims, mapping):
            if any(factor in rule.reduction_factors for factor in factors):
                partial.extend(dim.axes)
    return [(i, get_sharding(result), partial) for i, result in enumerate(op.results)]
