"""`sdy-unflatten-call-graph`: point calls of copies of one function (same origin, same shardings) at a single copy."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops_named
from pysdy.passes.registry import MODULE, Pass, option, register_pass

ORIGINAL_FUNC_NAME = "sdy.original_func_name"
FUNC_MANUAL_AXES = "sdy.manual_axes"


def functions_by_name(module: ir.Operation) -> dict[str, ir.Operation]:
    return {
        ir.StringAttr(op.attributes["sym_name"]).value: op.operation
        for op in module.regions[0].blocks[0].operations
        if op.operation.name == "func.func"
    }


def callee_name(call: ir.Operation) -> str:
    return ir.FlatSymbolRefAttr(call.attributes["callee"]).value


def computation_key(func: ir.Operation, ignore_shardings: bool) -> tuple:
    """What makes two functions interchangeable: origin, manual axes and (unless ignored) shardings."""
    attributes = func.attributes
    origin = attributes[ORIGINAL_FUNC_NAME] if ORIGINAL_FUNC_NAME in attributes else attributes["sym_name"]
    manual_axes = str(attributes[FUNC_MANUAL_AXES]) if FUNC_MANUAL_AXES in attributes else None
    if ignore_shardings:
        return (str(origin), manual_axes, None, None)
    args = tuple(str(func_attrs.get_arg_attr(func, i)) for i in range(func_attrs.num_arguments(func)))
    results = tuple(str(func_attrs.get_result_attr(func, i)) for i in range(func_attrs.num_results(func)))
    return (str(origin), manual_axes, args, results)


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
        found = nested_ops_named(op, {"func.call", "func.func"})
        calls = [nested for nested in found if nested.name == "func.call"]
        chosen: dict[tuple, ir.Operation] = {}
        for call in calls:
            func = funcs[callee_name(call)]
            chosen.setdefault(computation_key(func, self.dedup_functions_fully), func)
        if self.dedup_functions_fully:
            call_counts: dict[tuple, int] = {}
            for call in calls:
                func = funcs[callee_name(call)]
                exact_key = computation_key(func, False)
                call_counts[exact_key] = call_counts.get(exact_key, 0) + 1
                group = computation_key(func, True)
                if call_counts[exact_key] > call_counts.get(computation_key(chosen[group], False), 0):
                    chosen[group] = func
        for call in calls:
            func = chosen[computation_key(funcs[callee_name(call)], self.dedup_functions_fully)]
            call.attributes["callee"] = ir.FlatSymbolRefAttr.get(ir.StringAttr(func.attributes["sym_name"]).value)
        for func in (nested for nested in found if nested.name == "func.func"):
            for name in (ORIGINAL_FUNC_NAME, FUNC_MANUAL_AXES):
                if name in func.attributes:
                    del func.attributes[name]
