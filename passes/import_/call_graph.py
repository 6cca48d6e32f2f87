"""The module's call graph as MLIR's CallGraph orders it, and the function cloning the call-graph passes share.

MLIR's call graph has an external node with an edge to every function (in
module order); a function's edges go to its callees in the order its calls
are first met. Post-order visits callees before callers.
"""

from __future__ import annotations

from collections.abc import Callable

from jaxlib.mlir import ir

from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.import_.symbols import SymbolTable, symbol_name

ORIGINAL_FUNC_NAME = "sdy.original_func_name"


def functions(module: ir.Operation) -> list[ir.Operation]:
    return [op.operation for op in module.regions[0].blocks[0].operations if op.operation.name == "func.func"]


def has_body(func: ir.Operation) -> bool:
    return len(func.regions[0].blocks) > 0


def callee_name(call: ir.Operation) -> str:
    return ir.FlatSymbolRefAttr(call.attributes["callee"]).value


def set_callee(call: ir.Operation, name: str) -> None:
    call.attributes["callee"] = ir.FlatSymbolRefAttr.get(name)


def calls_in(op: ir.Operation) -> list[ir.Operation]:
    """The `func.call`s nested in `op`, in walk order."""
    return nested_ops(op, name="func.call")


def post_order_all(
    module: ir.Operation, symbols: SymbolTable, calls_of: Callable[[ir.Operation], list[ir.Operation]] = calls_in
) -> list[ir.Operation]:
    """Every function, callees before callers (MLIR's post-order over its call graph); `calls_of` gives a
    function's calls in walk order, for callers that already have them."""
    order: list[ir.Operation] = []
    visited: set[str] = set()
    funcs = functions(module)

    def visit(func: ir.Operation) -> None:
        visited.add(symbol_name(func))
        # Once every function is visited, calls lead nowhere new: no need to find them.
        if has_body(func) and len(visited) < len(funcs):
            for call in calls_of(func):
                callee = symbols.lookup(callee_name(call))
                if callee is not None and symbol_name(callee) not in visited:
                    visit(callee)
        order.append(func)

    for func in funcs:
        if symbol_name(func) not in visited:
            visit(func)
    return order


def post_order(
    module: ir.Operation, symbols: SymbolTable, calls_of: Callable[[ir.Operation], list[ir.Operation]] = calls_in
) -> list[ir.Operation]:
    """The functions with a body, callees before callers."""
    return [func for func in post_order_all(module, symbols, calls_of) if has_body(func)]


def walk_calls(
    module: ir.Operation, symbols: SymbolTable, calls_of: Callable[[ir.Operation], list[ir.Operation]] = calls_in
) -> list[ir.Operation]:
    """Every call in the module: function by function in post-order, each function's calls in walk order
    (each function walked once)."""
    calls: dict[ir.Operation, list[ir.Operation]] = {}

    def calls_once(func: ir.Operation) -> list[ir.Operation]:
        if func not in calls:
            calls[func] = calls_of(func)
        return calls[func]

    return [call for func in post_order(module, symbols, calls_once) for call in calls_once(func)]


def original_func_name(func: ir.Operation) -> str:
    if ORIGINAL_FUNC_NAME in func.attributes:
        return ir.StringAttr(func.attributes[ORIGINAL_FUNC_NAME]).value
    return symbol_name(func)


def clone_func_recursively(func: ir.Operation, symbols: SymbolTable) -> str:
    """Clones `func` and, recursively, every function it calls; appends the clones to the module
    (callees first) and returns the new name of `func`'s clone."""
    clone = func.clone(ir.InsertionPoint(symbols.module.regions[0].blocks[0]))
    clone.attributes[ORIGINAL_FUNC_NAME] = ir.StringAttr.get(original_func_name(func))
    for call in calls_in(clone):
        set_callee(call, clone_func_recursively(symbols.lookup(callee_name(call)), symbols))
    block = symbols.module.regions[0].blocks[0]
    last = block.operations[len(block.operations) - 1].operation
    if last != clone:
        clone.move_after(last)
    return symbols.insert(clone, symbol_name(func))
