"""A pipeline's outcome, pysdy's or jaxlib's C++: the module printed with its locations, or `error: ` and its errors."""

from __future__ import annotations

from jaxlib.mlir import ir, passmanager

from child_process import in_child_process
from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import parse_pipeline, run_pipeline


def outcome(text: str, run) -> str:
    """`run(module)` on `text` parsed in a fresh context, then the module printed with its locations, or `error: `
    and every error as `location: message`."""
    with make_context():
        module = ir.Module.parse(text)
        try:
            run(module)
        except ir.MLIRError as error:
            return "error: " + "\n".join(f"{d.location}: {d.message}" for d in error.error_diagnostics)
        return module.operation.get_asm(enable_debug_info=True)


def pysdy(text: str, pipeline: str) -> str:
    """pysdy's `builtin.module(<pipeline>)` on `text`."""
    return outcome(text, lambda module: run_pipeline(module, parse_pipeline(pipeline)))


@in_child_process
def cpp(text: str, pipeline: str) -> str:
    """jaxlib's C++ `builtin.module(<pipeline>)` on `text` (an empty pipeline prints the module as parsed)."""
    manager = f"builtin.module({pipeline})"
    return outcome(text, lambda module: passmanager.PassManager.parse(manager).run(module.operation))
