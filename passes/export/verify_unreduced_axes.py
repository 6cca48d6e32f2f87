"""`sdy-verify-unreduced-axes` (jax lines from 0.11): an error where an op drops, adds or re-reduces unreduced axes
without an explicit reshard (`sdy.reshard` or `sdy.sharding_constraint`), as jaxlib's Shardy reports it."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import AxisRef, TensorSharding
from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.manual_axes import erase_manual_axes, manual_axes_of
from pysdy.passes.common.reduction_bodies import body_reduction
from pysdy.passes.common.value_shardings import sharding_bypassing_barriers, through_barriers
from pysdy.passes.export.reshard_ir import MeshTable, axis_set_diff
from pysdy.passes.export.unflatten_call_graph import functions_by_name
from pysdy.passes.export.unreduced_presence import holds_unreduced_axes
from pysdy.passes.propagation.axis_refs import overlaps
from pysdy.passes.registry import FUNC, Pass, PassFailure, register_pass

_EXPLICIT_RESHARDS = frozenset({"sdy.reshard", "sdy.sharding_constraint"})
_DOTS = frozenset({"stablehlo.dot", "stablehlo.dot_general"})
_SDY_REDUCTIONS = frozenset({"sdy.all_reduce", "sdy.reduce_scatter"})
_STABLEHLO_REDUCTIONS = frozenset({"stablehlo.all_reduce", "stablehlo.reduce_scatter"})
_CHECKED_WITHOUT_UNREDUCED_AXES = _EXPLICIT_RESHARDS | _SDY_REDUCTIONS | {"func.call"}
_RETURNS = frozenset({"func.return", "stablehlo.return", "sdy.return", "mhlo.return"})
_UNBLESSED = " without a blessed operation (e.g., sdy.reshard). This is an invalid transition from unreduced to reduced."
# Ordinary ops may introduce unreduced axes of any reduction.
_ANY = "any"


class _Invalid(Exception):
    """An op's unreduced axes are invalid; the message is Shardy's, after `'<op>' op `."""


@register_pass
@dataclasses.dataclass(frozen=True)
class VerifyUnreducedAxesPass(Pass):
    argument = "sdy-verify-unreduced-axes"
    summary = "Verifies the consistency of unreduced axis usage."
    anchor = FUNC
    line_field = "verify_unreduced_axes"

    def run(self, op: ir.Operation) -> None:
        # Post-order, as MLIR walks: the ops of a region before the op holding it; the first error stops.
        meshes = MeshTable(op.parent)
        ops = nested_ops(op)[:-1]
        funcs = functions_by_name(op.parent)
        if not holds_unreduced_axes(op, ops, funcs):
            # Then only these can be invalid (a call, by its callee's results, which that check does not read).
            ops = [nested for nested in ops if nested.name in _CHECKED_WITHOUT_UNREDUCED_AXES]
        for nested in ops:
            try:
                _verify(nested, op, meshes)
            except _Invalid as invalid:
                nested.location.emit_error(f"'{nested.name}' op {invalid}")
                raise PassFailure() from None


def _verify(op: ir.Operation, func: ir.Operation, meshes: MeshTable) -> None:
    if op.name in _EXPLICIT_RESHARDS:
        op.verify()
    elif op.name == "stablehlo.reduce":
        body = body_reduction(op.regions[0])
        _verify_transition(op, _operand_shardings(op), _result_shardings(op), meshes, introduced=body)
    elif op.name in _DOTS:
        _verify_transition(op, _operand_shardings(op), _result_shardings(op), meshes, introduced="sum")
    elif op.name in _SDY_REDUCTIONS:
        if sharding_bypassing_barriers(op.operands[0]) is None:
            raise _Invalid("operand must be sharded.")
        op.verify()
    elif op.name in _STABLEHLO_REDUCTIONS:
        operand, result = sharding_bypassing_barriers(op.operands[0]), sharding_bypassing_barriers(op.results[0])
        if operand is not None or result is not None:
            body = body_reduction(op.regions[0]) if len(op.regions) else None
            _verify_transition(op, [operand], [result], meshes, introduced=None, reduced=body or "none")
    elif op.name == "func.call":
        _verify_call(op, func.parent)
    elif op.has_trait(ir.IsTerminatorTrait):
        if op.name in _RETURNS:
            _verify_return(op)
    else:
        _verify_transition(op, _operand_shardings(op), _result_shardings(op), meshes, introduced=_ANY)


def _is_explicitly_resharded(value: ir.Value) -> bool:
    value = through_barriers(value)
    return isinstance(value, ir.OpResult) and value.owner.name in _EXPLICIT_RESHARDS


def _operand_shardings(op: ir.Operation) -> list[TensorSharding | None]:
    """The operands' shardings; an explicitly resharded operand counts as having none."""
    return [None if _is_explicitly_resharded(v) else sharding_bypassing_barriers(v) for v in op.operands]


def _result_shardings(op: ir.Operation) -> list[TensorSharding | None]:
    return [sharding_bypassing_barriers(v) for v in op.results]


def _verify_transition(
    op: ir.Operation,
    operands: list[TensorSharding | None],
    results: list[TensorSharding | None],
    meshes: MeshTable,
    introduced: str | None,
    reduced: str | None = None,
) -> None:
    """Checks the unreduced axes from `operands` to `results`, in jaxlib's order: new axes have the reduction
    `introduced` (any for `_ANY`, none allowed for None); axes gone from the results are an error unless `reduced`
    names the reduction that drops them ("none" for a collective that cannot); kept axes keep their reduction; the
    results agree on one (checked first for an ordinary op)."""
    if len({meshes.of(s) for s in operands + results if s is not None}) > 1:
        return  # Shardy compares nothing across meshes (by value: two names of one mesh are compared)
    unreduced_results = [s for s in results if s is not None and s.unreduced]
    unreduced_operands = [s for s in operands if s is not None and s.unreduced]
    if introduced == _ANY and len({s.reduction for s in unreduced_results}) > 1:
        _raise_conflicting()  # an ordinary op's results are compared first
    result_axes = _unique(axis for s in unreduced_results for axis in s.unreduced)
    operand_axes = _unique(axis for s in unreduced_operands for axis in s.unreduced)
    mesh = next((meshes.of(s) for s in operands + results if s is not None), None)
    # As Shardy's axis set difference: sub-axes that cannot coexist with an axis of the other side count as kept.
    new_axes = axis_set_diff(result_axes, operand_axes, mesh) if operand_axes else result_axes
    dropped = axis_set_diff(operand_axes, result_axes, mesh) if result_axes else operand_axes
    if new_axes and introduced != _ANY:
        if introduced is None:
            raise _Invalid(f"cannot add new unreduced axis '{new_axes[0].name}'.")
        for sharding in _touching(unreduced_results, new_axes):
            if sharding.reduction != introduced:
                raise _Invalid(f"cannot introduce '{sharding.reduction}' unreduced axes. Expected '{introduced}'.")
    if dropped:
        if reduced is None or reduced == "none":
            raise _Invalid(f"dropped unreduced axis '{dropped[0].name}'{_UNBLESSED}")
        for sharding in _touching(unreduced_operands, dropped):
            if sharding.reduction != reduced:
                raise _Invalid(f"cannot reduce '{sharding.reduction}' unreduced axes. Expected '{reduced}'.")
    # Every result axis keeps the kind of every operand axis it overlaps.
    for result in unreduced_results:
        for operand in _touching(unreduced_operands, result.unreduced):
            if operand.reduction != result.reduction:
                raise _Invalid(
                    "cannot change the reduction operator of kept unreduced axes from "
                    f"{operand.reduction} to {result.reduction}."
                )
    if len({s.reduction for s in unreduced_results}) > 1:
        _raise_conflicting()


def _raise_conflicting() -> None:
    raise _Invalid("results introduce unreduced axes with conflicting reduction ops")


def _touching(shardings: list[TensorSharding], axes) -> list[TensorSharding]:
    """The shardings with an unreduced axis that overlaps one of `axes`."""
    return [s for s in shardings if any(overlaps(a, b) for a in s.unreduced for b in axes)]


def _unique(axes) -> list[AxisRef]:
    return list(dict.fromkeys(axes))


def _unreduced(sharding: TensorSharding | None) -> tuple[AxisRef, ...]:
    return sharding.unreduced if sharding is not None else ()


def _require_equal(source: tuple[AxisRef, ...], target: tuple[AxisRef, ...], suffix: str) -> None:
    if set(source) == set(target):
        return
    names = sorted({a.name for a in source if a not in target} | {a.name for a in target if a not in source})
    raise _Invalid(f"has unreduced axes mismatch for '{', '.join(names)}{suffix}")


def _verify_call(call: ir.Operation, module: ir.Operation) -> None:
    """A call's operands and results have exactly the unreduced axes of its callee's arguments and results."""
    callee = functions_by_name(module).get(ir.FlatSymbolRefAttr(call.attributes["callee"]).value)
    if callee is None:
        return
    for i, operand in enumerate(call.operands):
        if _is_explicitly_resharded(operand):
            continue
        argument = func_attrs.arg_sharding(callee, i)
        operand_axes = _unreduced(sharding_bypassing_barriers(operand))
        _require_equal(operand_axes, _unreduced(argument), f"' at call argument {i}.")
    callee_results = func_attrs.result_shardings(callee)
    for i, result in enumerate(call.results):
        result_axes = _unreduced(sharding_bypassing_barriers(result))
        _require_equal(_unreduced(callee_results[i]), result_axes, f"' at call result {i}.")


def _verify_return(op: ir.Operation) -> None:
    """A function's return has its results' unreduced axes, a manual computation's body its results' (without
    the manual axes); values just resharded explicitly are exempt."""
    parent = op.parent
    if parent.name == "func.func":
        expected = func_attrs.result_shardings(parent)
    elif parent.name == "sdy.manual_computation":
        manual_axes = manual_axes_of(parent)
        expected = [sharding_bypassing_barriers(result) for result in parent.results]
        expected = [None if s is None else erase_manual_axes(s, manual_axes) for s in expected]
    else:
        return
    for i, (operand, result) in enumerate(zip(op.operands, expected)):
        if result is None or _is_explicitly_resharded(operand):
            continue
        operand_axes = _unreduced(sharding_bypassing_barriers(operand))
        _require_equal(operand_axes, result.unreduced, f"' at return value {i}{_UNBLESSED}")
