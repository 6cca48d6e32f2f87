"""`sdy-remove-all-gather-reduce-scatter-for-cmv1`: for collective matmul V1, drop the `sdy.all_gather`s feeding only a dot, or else the `sdy.reduce_scatter` that is a dot's only user (the dot taking its sharding)."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding, set_sharding
from pysdy.passes.registry import FUNC, Pass, register_pass

DOT_OPS = ("stablehlo.dot", "stablehlo.dot_general")


def _replace_by_operand(op: ir.Operation) -> None:
    op.results[0].replace_all_uses_with(op.operands[0])
    op.erase()


def _only_user(value: ir.Value) -> ir.Operation | None:
    uses = list(value.uses)
    return uses[0].owner if len(uses) == 1 else None


def _gathers_feeding_only(dot: ir.Operation) -> list[ir.Operation]:
    return [
        operand.owner
        for operand in dot.operands
        if isinstance(operand, ir.OpResult)
        and operand.owner.name == "sdy.all_gather"
        and _only_user(operand) is not None
    ]


def _remove_for_dot(dot: ir.Operation) -> None:
    gathers = _gathers_feeding_only(dot)
    for gather in gathers:
        _replace_by_operand(gather)
    if gathers:
        return
    user = _only_user(dot.results[0])
    if user is None or user.name != "sdy.reduce_scatter":
        return
    sharding = get_sharding(dot.results[0])
    if sharding is not None and sharding.unreduced:
        return
    set_sharding(dot.results[0], TensorSharding.from_attr(user.attributes["out_sharding"]))
    _replace_by_operand(user)


@register_pass
@dataclasses.dataclass(frozen=True)
class RemoveAllGatherReduceScatterForCmv1Pass(Pass):
    argument = "sdy-remove-all-gather-reduce-scatter-for-cmv1"
    summary = "Removes sdy.all_gather and sdy.reduce_scatter for CMV1."
    anchor = FUNC

    def run(self, op: ir.Operation) -> None:
        for nested in nested_ops(op):
            if nested.name in DOT_OPS:
                _remove_for_dot(nested)
