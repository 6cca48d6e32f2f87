"""`sdy-constant-or-scalar-merger`: merge constants, and broadcasts of one scalar, that are identical down to their shardings."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common.constants import CONSTANT_LIKE_OPS
from pysdy.passes.registry import FUNC, Pass, register_pass

BROADCAST = "stablehlo.broadcast_in_dim"
_CANDIDATES = CONSTANT_LIKE_OPS | {BROADCAST}


def _attribute_key(op: ir.Operation) -> tuple:
    """The op's attributes, equal exactly for ops with equal attributes (MLIR uniques attributes)."""
    attributes = op.attributes
    try:
        return tuple(sorted((name, attributes[name]) for name in attributes))
    except (ValueError, TypeError, RuntimeError):
        # Some dense attributes (e.g. of complex type) cannot be read by name, which downcasts;
        # those are compared by their text, printed by index.
        return tuple(sorted(str(attributes[index]) for index in range(len(attributes))))


def _is_scalar(value: ir.Value) -> bool:
    value_type = value.type
    return isinstance(value_type, ir.RankedTensorType) and value_type.rank == 0


def _candidates(op: ir.Operation) -> list[ir.Operation]:
    """The constants and broadcasts nested in `op`, in MLIR's (post-order) walk order."""
    found: list[ir.Operation] = []

    def visit(nested: ir.Operation) -> ir.WalkResult:
        if nested.name in _CANDIDATES:
            found.append(nested)
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return found


@register_pass
@dataclasses.dataclass(frozen=True)
class ConstantOrScalarMergerPass(Pass):
    argument = "sdy-constant-or-scalar-merger"
    summary = "Merge identical constants and scalar expansions with matching shardings."
    anchor = FUNC

    def run(self, op: ir.Operation) -> None:
        # Keys include the enclosing block, so merging never moves a value across regions.
        first_of: dict[tuple, ir.Operation] = {}
        for nested in _candidates(op):
            if nested.name != BROADCAST:
                key = ("constant", _attribute_key(nested), nested.block)
            else:
                operand = nested.operands[0]
                if not _is_scalar(operand):
                    continue
                key = ("broadcast", _attribute_key(nested), nested.block, nested.result.type, operand)
            kept = first_of.setdefault(key, nested)
            if kept is not nested:
                for result, kept_result in zip(nested.results, kept.results):
                    result.replace_all_uses_with(kept_result)
                nested.erase()
