"""Why propagation left an op's operand sharded otherwise than the op computes it, read off the op's sharding rule at
the propagation's fixed point with the strategy's own tests: which tensors hold which axes along each factor, whether
they disagree on its major axis, whether an axis already shards another factor of the operand, whether a factor must
stay replicated or a dimension's axes do not divide its factors; and whether user priorities decided it."""

from __future__ import annotations

import re

from jaxlib.mlir import ir

from pysdy.dialects.sdy import FactorKind, Mesh, TensorSharding
from pysdy.explanation.model import Annotation
from pysdy.explanation.printing import axes_text, sharding_text
from pysdy.explanation.recorded_module import RecordedModule
from pysdy.passes.propagation.factor_propagation import BasicFactorPropagation, PropagationDirection
from pysdy.passes.propagation.sharding_projection import ShardingProjection, build_tensor_factor_shardings


_PRIORITY = re.compile(r"\}p(\d+)")


def priority_note(current: tuple[Annotation, ...], needed: tuple[Annotation, ...]) -> str:
    """Why the needed side won, when user priorities decided it: user-priority propagation propagates each
    priority's shardings, p0 first, before the next."""
    def best(annotations):
        found = [int(p) for a in annotations for p in _PRIORITY.findall(a.sharding)]
        return min(found) if found else None

    have, want = best(current), best(needed)
    if want is None or (have is not None and have <= want):
        return ""
    loser = f"p{have}" if have is not None else "no priority"
    return f"; the needed side's annotation has priority p{want}, the other's {loser}: p{want} propagates first"


def disagreement(
    recorded: RecordedModule, op: ir.Operation, operand_number: int, current, needed: TensorSharding, mesh: Mesh
) -> str:
    """Why `op`'s operand `operand_number` (-1: its result) is sharded `current` where the op computes it as
    `needed`, factor by factor of the operand's dimensions."""
    rule = recorded.rule(op)
    if rule is None or operand_number < 0:
        return f"{op.name} computes its result as {sharding_text(needed)}; the reshard brings the result to its users' sharding"
    operands = [_fitting(recorded.sharding(v), m) for v, m in zip(op.operands, rule.operand_mappings)]
    operands[operand_number] = _fitting(current, rule.operand_mappings[operand_number])
    results = [_fitting(recorded.sharding(v), m) for v, m in zip(op.results, rule.result_mappings)]
    fits = _fitting(needed, rule.operand_mappings[operand_number]) is not None
    if not fits or len(operands) != len(rule.operand_mappings) or len(results) != len(rule.result_mappings):
        return f"{op.name} computes operand {operand_number} as {sharding_text(needed)}"
    projection = ShardingProjection.build(operands, results, rule, mesh)
    have_tensor = projection.operands[operand_number]
    want_tensor = build_tensor_factor_shardings(rule.operand_mappings[operand_number], needed, rule.factor_sizes, mesh)
    parts = []
    for dim, factors in enumerate(rule.operand_mappings[operand_number]):
        overflow = [a for f in factors for a in have_tensor.factor_index_to_sharding[f].overflow_axes]
        if overflow:
            parts.append(_overflow_reason(rule, operand_number, dim, factors, current, overflow, needed))
            continue
        for factor in factors:
            have = have_tensor.factor_index_to_sharding[factor].axis_refs
            want = want_tensor.factor_index_to_sharding[factor].axis_refs
            if list(have) == list(want):
                continue
            parts.append(_factor_reason(projection, rule, operand_number, dim, factor, have, want, mesh))
    return "; ".join(parts) or f"the operand's sharding differs from {sharding_text(needed)} outside its dimensions"


def _overflow_reason(rule, operand_number, dim, factors, current, overflow, needed) -> str:
    """A dimension sharded on more axes than its factors can carry: a reshape splitting it into sizes the axes do
    not divide keeps only the axes (or parts) that fit the major factor."""
    sizes = " x ".join(str(rule.factor_sizes[f]) for f in factors)
    return (
        f"operand {operand_number} dim {dim} is sharded on {axes_text(current.dims[dim].axes)}, but this op splits that "
        f"dimension into factors of sizes {sizes}, and {axes_text(overflow)} does not divide them: the op can keep only "
        f"{axes_text(needed.dims[dim].axes)} of it, and the rest is gathered"
    )


def _fitting(sharding: TensorSharding | None, mapping) -> TensorSharding | None:
    """The sharding if it has the rule's rank for its tensor (a token or a sharding on another mesh has not)."""
    return sharding if sharding is not None and sharding.rank == len(mapping) else None


def _factor_reason(projection, rule, operand_number, dim, factor, have, want, mesh) -> str:
    where = f"operand {operand_number} dim {dim}"
    holders = _holders(projection, factor, operand_number)
    held = ", ".join(f"{label} has {axes_text(axes)}" for label, axes in holders) or "no other tensor is sharded along it"
    kind = rule.factor_kind(factor)
    if not want and kind is FactorKind.NEED_REPLICATION:
        return f"{where} is sharded on {axes_text(have)} but this op needs that dimension whole (a factor it cannot shard)"
    for axis in want:
        if axis in have:
            continue
        fits = BasicFactorPropagation.compatible_prefix_no_conflicts_across_factors(
            axis, projection.operands[operand_number].factor_index_to_sharding, factor
        )
        if fits is None:
            return (
                f"{where} arrives as {axes_text(have)}; the op computes it on {axes_text(want)} ({held}), but axis {axis} "
                f"already shards another dimension of operand {operand_number}, so propagation could not move it there"
            )
    agreed = BasicFactorPropagation.compatible_major_axes(projection, factor, PropagationDirection.BOTH)
    if have and want and len(agreed) < min(len(have), len(want)):
        return (
            f"{where} arrives as {axes_text(have)} while {held}: they disagree on the dimension's major axis, and "
            f"propagation passes on only the axes all of an op's tensors agree on, so the op computes it as {axes_text(want)}"
        )
    if not have:
        return f"{where} arrives replicated while {held}; the op computes it on {axes_text(want)}"
    return f"{where} arrives as {axes_text(have)} while {held}; the op computes it on {axes_text(want)}"


def _holders(projection: ShardingProjection, factor: int, operand_number: int) -> list[tuple[str, list]]:
    found = []
    for kind, tensors in (("operand", projection.operands), ("result", projection.results)):
        for index, tensor in enumerate(tensors):
            if kind == "operand" and index == operand_number:
                continue
            sharding = tensor.factor_index_to_sharding.get(factor)
            if sharding is not None and sharding.axis_refs:
                found.append((f"{kind} {index}", sharding.axis_refs))
    return found
