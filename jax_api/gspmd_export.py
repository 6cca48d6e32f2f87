"""pysdy's propagation and GSPMD export of one JAX-lowered module, giving the text XLA's GSPMD partitioner compiles."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.context import make_context
from pysdy.runtime.errors import RuntimeInputError
from pysdy.runtime.pysdy_passes import prepare_for_xla, propagate


class PysdyExportError(RuntimeError):
    """pysdy's pipeline rejected a JAX module; the message carries the pass diagnostics."""


@dataclasses.dataclass(frozen=True)
class GspmdExport:
    """The module text XLA's GSPMD partitioner gets, and a note for each sharding dropped because XLA rejects it."""

    text: str
    dropped_shardings: tuple[str, ...]


def export_for_gspmd(module_text: str, module_name: str = "module") -> GspmdExport:
    """The module after pysdy's `sdy-propagation-pipeline` and `xla-sdy-stablehlo-export-pipeline`, as the
    runtime's GSPMD route makes it (a module JAX lowered with `mhlo.sharding`s is imported first).

    The module is re-parsed in pysdy's own context, so JAX's context and its
    module are never modified.
    """
    with make_context():
        try:
            module = ir.Module.parse(module_text)
        except ir.MLIRError as error:
            raise PysdyExportError(f"pysdy cannot parse the module JAX lowered for '{module_name}':\n{error}") from None
        try:
            propagate(module)
            dropped = prepare_for_xla(module, "gspmd")
        except ir.MLIRError as error:
            raise PysdyExportError(_failure_message(module_name, error)) from None
        except RuntimeInputError as error:
            raise PysdyExportError(f"pysdy cannot hand '{module_name}' to XLA:\n  {error}") from None
        return GspmdExport(module.operation.get_asm(enable_debug_info=True), tuple(dropped))


def _failure_message(module_name: str, error: ir.MLIRError) -> str:
    lines = [f"pysdy's pipeline failed on '{module_name}':"]
    for diagnostic in error.error_diagnostics:
        lines.append(f"  {diagnostic.location}: error: {diagnostic.message}")
    if len(lines) == 1:
        lines.append(f"  {error}")
    return "\n".join(lines)
