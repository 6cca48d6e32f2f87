"""pysdy's propagation and GSPMD export of one JAX-lowered module, giving the text XLA's GSPMD partitioner compiles."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import parse_pipeline, run_pipeline
from pysdy.runtime.xla_limits import drop_shardings_xla_rejects

# What XLA runs on an sdy module before GSPMD partitioning, here as pysdy's Python passes, in two halves: the
# shardings jaxlib's XLA rejects (see pysdy/runtime/xla_limits.py) are dropped in between.
PROPAGATION_PIPELINE = "builtin.module(sdy-propagation-pipeline)"
EXPORT_PIPELINE = "builtin.module(xla-sdy-stablehlo-export-pipeline)"
# A module JAX lowered with `mhlo.sharding`s (jax_use_shardy_partitioner=False) is imported to sdy first.
IMPORT_PIPELINE = "builtin.module(xla-sdy-stablehlo-import-pipeline)"


class PysdyExportError(RuntimeError):
    """pysdy's pipeline rejected a JAX module; the message carries the pass diagnostics."""


@dataclasses.dataclass(frozen=True)
class GspmdExport:
    """The module text XLA's GSPMD partitioner gets, and a note for each sharding dropped because XLA rejects it."""

    text: str
    dropped_shardings: tuple[str, ...]


def export_for_gspmd(module_text: str, module_name: str = "module", from_gspmd: bool = False) -> GspmdExport:
    """The module after pysdy's `sdy-propagation-pipeline` and `xla-sdy-stablehlo-export-pipeline`.

    With `from_gspmd`, the module's `mhlo.sharding`s are first imported to sdy
    (`xla-sdy-stablehlo-import-pipeline`). The module is re-parsed in pysdy's
    own context, so JAX's context and its module are never modified.
    """
    with make_context():
        try:
            module = ir.Module.parse(module_text)
        except ir.MLIRError as error:
            raise PysdyExportError(f"pysdy cannot parse the module JAX lowered for '{module_name}':\n{error}") from None
        try:
            if from_gspmd:
                run_pipeline(module, parse_pipeline(IMPORT_PIPELINE))
            run_pipeline(module, parse_pipeline(PROPAGATION_PIPELINE))
            dropped = drop_shardings_xla_rejects(module, "sdy.sharding")
            run_pipeline(module, parse_pipeline(EXPORT_PIPELINE))
        except ir.MLIRError as error:
            raise PysdyExportError(_failure_message(module_name, error)) from None
        return GspmdExport(module.operation.get_asm(enable_debug_info=True), tuple(dropped))


def _failure_message(module_name: str, error: ir.MLIRError) -> str:
    lines = [f"pysdy's pipeline failed on '{module_name}':"]
    for diagnostic in error.error_diagnostics:
        lines.append(f"  {diagnostic.location}: error: {diagnostic.message}")
    if len(lines) == 1:
        lines.append(f"  {error}")
    return "\n".join(lines)
