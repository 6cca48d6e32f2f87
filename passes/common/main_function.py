"""The module's main function as Shardy finds it: `@main`, or the only function of a module with one."""

from __future__ import annotations

from jaxlib.mlir import ir


def main_func(module: ir.Operation) -> ir.Operation | None:
    """The function called `main`, or the module's only function; None when there is neither (Shardy aborts)."""
    funcs = [op.operation for op in module.regions[0].blocks[0].operations if op.operation.name == "func.func"]
    if len(funcs) == 1:
        return funcs[0]
    return next((func for func in funcs if ir.StringAttr(func.attributes["sym_name"]).value == "main"), None)
