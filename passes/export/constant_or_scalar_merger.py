"""`sdy-constant-or-scalar-merger`: merge constants, and broadcasts of one scalar, that are identical down to their shardings."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.registry import FUNC, Pass, register_pass

# Ops with MLIR's ConstantLike trait among the dialects a JAX module uses.
CONSTANT_OPS = frozenset(
    {"sdy.constant", "stablehlo.constant", "mhlo.constant", "chlo.constant", "arith.constant"}
)
BROADCAST = "stablehlo.broadcast_in_dim"


def _attribute_key(op: ir.Operation) -> tuple:
    # Printed by index: reading by name would downcast, which fails for e.g. complex dense attributes.
    attributes = op.attributes
    return tuple(sorted(str(attributes[index]) for index in range(len(attributes))))


def _is_scalar(value: ir.Value) -> bool:
    return isinstance(value.type, ir.RankedTensorType) and value.type.rank == 0


@register_pass
@dataclasses.dataclass(frozen=True)
class ConstantOrScalarMergerPass(Pass):
    argument = "sdy-constant-or-scalar-merger"
    summary = "Merge identical constants and scalar expansions with matching shardings."
    anchor = FUNC

    def run(self, op: ir.Operation) -> None:
        # Keys include the enclosing block, so merging never moves a value across regions.
        first_of: dict[tuple, ir.Operation] = {}
        for nested in nested_ops(op):
            if nested.name in CONSTANT_OPS:
                key = ("constant", _attribute_key(nested), nested.block)
            elif nested.name == BROADCAST and _is_scalar(nested.operands[0]):
                operand = nested.operands[0]
                key = ("broadcast", _attribute_key(nested), nested.block, str(nested.results[0].type), operand)
            else:
                continue
            kept = first_of.setdefault(key, nested)
            if kept is not nested:
                for result, kept_result in zip(nested.results, kept.results):
                    result.replace_all_uses_with(kept_result)
                nested.erase()
