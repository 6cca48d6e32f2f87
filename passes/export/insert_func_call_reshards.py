"""`sdy-insert-func-call-reshards`: give every call its callee's result shardings, and reshard after the call
where its own sharding differed."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import TensorSharding
from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding, set_result_sharding
from pysdy.passes.export.unflatten_call_graph import callee_name, functions_by_name
from pysdy.passes.import_.propagate_sharding_from_func_to_call import func_shardings
from pysdy.passes.import_.symbols import SymbolTable
from pysdy.passes.registry import MODULE, Pass, register_pass


def _needs_no_reshard(first: TensorSharding, second: TensorSharding) -> bool:
    """Both replicated in every dimension (on any meshes), or the same axes on one mesh; open or closed
    dimensions, priorities and replicated axes do not matter, unreduced axes only on the lines that compare them."""
    if versions.installed().func_call_reshards_unreduced == "compared" and set(first.unreduced) != set(second.unreduced):
        return False
    if all(not d.axes for d in first.dims) and all(not d.axes for d in second.dims):
        return True
    return first.mesh == second.mesh and [d.axes for d in first.dims] == [d.axes for d in second.dims]


def insert_reshards_on_results(func: ir.Operation, call: ir.Operation, symbols: SymbolTable) -> None:
    """Gives each call result its callee's result sharding and reshards after the call where they differ.

    The callee's result shardings are read as Shardy does (none when none is on a non-maximal mesh, missing
    ones fully open); a missing sharding on either side means fully replicated on the other's mesh."""
    func_results = func_shardings(func_attrs.result_shardings(func), func_attrs.result_types(func), symbols)
    # Read before any is set: setting one result's sharding gives its unsharded siblings open ones.
    call_shardings = [get_sharding(result) for result in call.results]
    for index, (result, call_sharding) in enumerate(zip(call.results, call_shardings)):
        func_sharding = func_results.shardings[index] if func_results is not None else None
        if func_sharding is None:
            if call_sharding is None:
                continue
            func_sharding = TensorSharding.fully_closed(call_sharding.mesh, call_sharding.rank)
        if call_sharding is None:
            call_sharding = TensorSharding.fully_closed(func_sharding.mesh, func_sharding.rank)
        if versions.installed().func_call_reshards_unreduced == "left" and (
            set(func_sharding.unreduced) != set(call_sharding.unreduced)
        ):
            set_result_sharding(call, index, call_sharding)
            continue
        set_result_sharding(call, index, func_sharding)
        if _needs_no_reshard(func_sharding, call_sharding):
            continue
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
    leaves_invalid_ir = True  # e.g. a reshard changing the reduction kind of kept unreduced axes

    def run(self, op: ir.Operation) -> None:
        funcs = functions_by_name(op)
        symbols = SymbolTable(op)
        for call in nested_ops(op, name="func.call"):
            insert_reshards_on_results(funcs[callee_name(call)], call, symbols)
