"""`sdy-insert-func-call-reshards`: give each call its callee's result shardings, resharding after the call where they differ from the call's."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import SHARDING
from pysdy.passes.export.unflatten_call_graph import callee_name, functions_by_name
from pysdy.passes.import_.propagate_sharding_from_func_to_call import func_shardings
from pysdy.passes.import_.symbols import SymbolTable
from pysdy.passes.registry import MODULE, Pass, register_pass


def _no_dim_axes(sharding: TensorSharding) -> bool:
    return all(not dim.axes for dim in sharding.dims)


def _equivalent(first: TensorSharding, second: TensorSharding) -> bool:
    """Both shard no dimension (on any meshes, maximal ones included), or the same mesh and dimension axes."""
    if _no_dim_axes(first) and _no_dim_axes(second):
        return True
    return first.mesh == second.mesh and [d.axes for d in first.dims] == [d.axes for d in second.dims]


def _fully_closed_like(sharding: TensorSharding) -> TensorSharding:
    return TensorSharding.fully_closed(sharding.mesh, sharding.rank)


def insert_reshards_on_results(func: ir.Operation, call: ir.Operation, symbols: SymbolTable) -> None:
    """Callee result shardings count only if one is on a non-maximal mesh (see `func_shardings`); a missing
    side stands for fully replicated, closed like the other side's sharding."""
    callee = func_shardings(func_attrs.result_shardings(func), list(call.results), symbols)
    caller = TensorShardingPerValue.from_attr(call.attributes[SHARDING]) if SHARDING in call.attributes else None
    if callee is None and caller is None:
        return
    callee_shardings = callee.shardings if callee is not None else tuple(map(_fully_closed_like, caller.shardings))
    call_shardings = caller.shardings if caller is not None else tuple(map(_fully_closed_like, callee_shardings))
    for result, func_sharding, call_sharding in zip(call.results, callee_shardings, call_shardings):
        if _equivalent(func_sharding, call_sharding):
            continue
        with ir.InsertionPoint.after(call), call.location:
            reshard = ir.Operation.create(
                "sdy.reshard",
                results=[result.type],
                operands=[result],
                attributes={"sharding": call_sharding.to_attr()},
            )
        result.replace_all_uses_except(reshard.results[0], reshard)
    call.attributes[SHARDING] = TensorShardingPerValue(callee_shardings).to_attr()


@register_pass
@dataclasses.dataclass(frozen=True)
class InsertFuncCallReshardsPass(Pass):
    argument = "sdy-insert-func-call-reshards"
    summary = "Inserts reshards for func and call sharding conflicts."
    anchor = MODULE

    def run(self, op: ir.Operation) -> None:
        funcs = functions_by_name(op)
        symbols = SymbolTable(op)
        for call in nested_ops(op, name="func.call"):
            insert_reshards_on_results(funcs[callee_name(call)], call, symbols)
