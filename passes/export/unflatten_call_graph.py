"""`sdy-unflatten-call-graph`: point calls of copies of one function (same origin, same manual axes, same
shardings) at a single copy."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.dialects.sdy import ManualAxes
from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops_named
from pysdy.passes.import_.call_graph import ORIGINAL_FUNC_NAME, original_func_name
from pysdy.passes.import_.propagate_sharding_from_func_to_call import func_shardings
from pysdy.passes.import_.symbols import SymbolTable
from pysdy.passes.registry import MODULE, Pass, option, register_pass

# The manual axes of the manual computations a function is called from. No sdy pass of jaxlib 0.10.2 sets
# it; XLA's import of shard_map bodies does.
FUNC_MANUAL_AXES = "sdy.func_manual_axes"


def functions_by_name(module: ir.Operation) -> dict[str, ir.Operation]:
    return {
        ir.StringAttr(op.attributes["sym_name"]).value: op.operation
        for op in module.regions[0].blocks[0].operations
        if op.operation.name == "func.func"
    }


def callee_name(call: ir.Operation) -> str:
    return ir.FlatSymbolRefAttr(call.attributes["callee"]).value


def _manual_axes(func: ir.Operation) -> ManualAxes | None:
    """The function's manual axes; an attribute of another kind counts as none, as in Shardy."""
    attributes = func.attributes
    if FUNC_MANUAL_AXES not in attributes or not sdy.ManualAxesAttr.isinstance(attributes[FUNC_MANUAL_AXES]):
        return None
    return ManualAxes.from_attr(attributes[FUNC_MANUAL_AXES])


def computation_key(func: ir.Operation, symbols: SymbolTable, ignore_shardings: bool) -> tuple:
    """What makes two functions interchangeable: origin, manual axes and (unless ignored) the argument and
    result shardings, each list missing when no sharding is on a non-maximal mesh and otherwise
    completed with fully open shardings on the first such mesh."""
    key = (original_func_name(func), _manual_axes(func))
    if ignore_shardings:
        return key + (None, None)
    types = func_attrs.function_type(func)
    args = func_shardings(func_attrs.arg_shardings(func), list(types.inputs), symbols)
    results = func_shardings(func_attrs.result_shardings(func), list(types.results), symbols)
    return key + (args, results)


@register_pass
@dataclasses.dataclass(frozen=True)
class UnflattenCallGraphPass(Pass):
    argument = "sdy-unflatten-call-graph"
    summary = "Unflattens the call graph."
    anchor = MODULE

    dedup_functions_fully: bool = option(
        False,
        "If true, regardless of the input and output shardings of functions, it keeps one callee "
        "function for each caller function. The default is false, meaning it will deduplicate only "
        "if the input and output shardings are the same.",
    )

    def run(self, op: ir.Operation) -> None:
        funcs = functions_by_name(op)
        symbols = SymbolTable(op)
        # Per function: its exact key, and the key this run groups by.
        exact = {name: computation_key(func, symbols, False) for name, func in funcs.items()}
        grouping = exact if not self.dedup_functions_fully else {
            name: computation_key(func, symbols, True) for name, func in funcs.items()
        }
        found = nested_ops_named(op, {"func.call", "func.func"})
        callees = [callee_name(nested) for nested in found if nested.name == "func.call"]
        chosen: dict[tuple, str] = {}
        for callee in callees:
            chosen.setdefault(grouping[callee], callee)
        if self.dedup_functions_fully:
            call_counts: dict[tuple, int] = {}
            for callee in callees:
                call_counts[exact[callee]] = call_counts.get(exact[callee], 0) + 1
                group = grouping[callee]
                if call_counts[exact[callee]] > call_counts.get(exact[chosen[group]], 0):
                    chosen[group] = callee
        for call in (nested for nested in found if nested.name == "func.call"):
            call.attributes["callee"] = ir.FlatSymbolRefAttr.get(chosen[grouping[callee_name(call)]])
        for func in (nested for nested in found if nested.name == "func.func"):
            for name in (ORIGINAL_FUNC_NAME, FUNC_MANUAL_AXES):
                if name in func.attributes:
                    del func.attributes[name]
