"""`sdy-insert-func-call-reshards`: where a call's result sharding differs from its callee's result sharding, give the call the callee's sharding and reshard after it."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding
from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding, set_result_sharding
from pysdy.passes.common.values import rank
from pysdy.passes.export.unflatten_call_graph import callee_name, functions_by_name
from pysdy.passes.registry import MODULE, Pass, register_pass


def _same_axes(first: TensorSharding, second: TensorSharding) -> bool:
    """Equal up to open/closed dimensions: then the call needs no reshard."""
    return first.mesh == second.mesh and [d.axes for d in first.dims] == [d.axes for d in second.dims]


def func_result_shardings(func: ir.Operation) -> list[TensorSharding | None]:
    """The callee's result shardings; when only some are set, the others are fully open on the same mesh."""
    shardings = func_attrs.result_shardings(func)
    present = [s for s in shardings if s is not None]
    if not present:
        return shardings
    types = func_attrs.result_types(func)
    return [
        s if s is not None else TensorSharding.fully_open(present[0].mesh, types[i].rank)
        for i, s in enumerate(shardings)
    ]


def insert_reshards_on_results(func: ir.Operation, call: ir.Operation) -> None:
    for index, (result, func_sharding) in enumerate(zip(call.results, func_result_shardings(func))):
        call_sharding = get_sharding(result)
        if func_sharding is None and call_sharding is None:
            continue
        # A missing sharding means fully replicated.
        if func_sharding is None:
            func_sharding = TensorSharding.fully_closed(call_sharding.mesh, rank(result))
        if call_sharding is None:
            call_sharding = TensorSharding.fully_closed(func_sharding.mesh, rank(result))
        if _same_axes(func_sharding, call_sharding):
            continue
        set_result_sharding(call, index, func_sharding)
        with ir.InsertionPoint.after(call), call.location:
            reshard = ir.Operation.create(
                "sdy.reshard",
                results=[result.type],
                operands=[result],
                attributes={"sharding": call_sharding.to_attr()},
            )
        result.replace_all_uses_except(reshard.results[0], reshard)


@register_pass
@dataclasses.dataclass(frozen=True)
class InsertFuncCallReshardsPass(Pass):
    argument = "sdy-insert-func-call-reshards"
    summary = "Inserts reshards for func and call sharding conflicts."
    anchor = MODULE

    def run(self, op: ir.Operation) -> None:
        funcs = functions_by_name(op)
        for call in nested_ops(op, name="func.call"):
            insert_reshards_on_results(funcs[callee_name(call)], call)
