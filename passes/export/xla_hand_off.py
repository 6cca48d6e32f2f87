"""`pysdy-xla-hand-off`: a propagated module in the form pysdy-run and pysdy.jax hand to jaxlib's XLA on a route."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.diagnostics import emit_warning, report_nested_errors
from pysdy.passes.registry import MODULE, Pass, PassFailure, option, register_pass
from pysdy.runtime.pysdy_passes import ROUTES, prepare_for_xla
from pysdy.runtime.unreduced_sources import UnreducedFromReplicatedError


@register_pass
@dataclasses.dataclass(frozen=True)
class XlaHandOffPass(Pass):
    argument = "pysdy-xla-hand-off"
    summary = (
        "The step after sdy-propagation-pipeline before handing a file to XLA: on the sdy route (XLA's Shardy "
        "partitioner; propagate with avoid-export-for-partitioning=true) every op's sharding as constraints on its "
        "results; on the gspmd route the rewritten loops and broadcasts, optimization barriers' shardings as "
        "constraints, and xla-sdy-stablehlo-export-pipeline."
    )
    anchor = MODULE

    route: str = option("sdy", "The partitioner XLA compiles with: sdy or gspmd.")

    def run(self, op: ir.Operation) -> None:
        if self.route not in ROUTES:
            op.location.emit_error(f"{self.argument}: unknown route '{self.route}': use one of {', '.join(ROUTES)}")
            raise PassFailure()
        try:
            notes = prepare_for_xla(op, self.route)
        except UnreducedFromReplicatedError as error:
            error.location.emit_error(error.message)
            raise PassFailure() from None
        except ir.MLIRError as error:
            report_nested_errors(error)
            raise PassFailure() from None
        for note in notes:
            emit_warning(op.location, note)
