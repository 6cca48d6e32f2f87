"""`xla-sdy-stablehlo-export-pipeline`: an sdy module as plain StableHLO with GSPMD `mhlo.sharding`s, ready for XLA's HLO conversion.

The steps are those of the XLA bundled with jaxlib 0.10.2, whose own run of
this pipeline (what XLA does before compiling an sdy module for GSPMD) the
tests compare against.
"""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.pipeline import PassStep, Step, run_steps_in_pass
from pysdy.passes.registry import MODULE, Pass, option, register_pass


def _flag(value: bool) -> str:
    return "true" if value else "false"


@register_pass
@dataclasses.dataclass(frozen=True)
class StablehloExportPipelinePass(Pass):
    argument = "xla-sdy-stablehlo-export-pipeline"
    summary = (
        "Run passes to export the SDY (Shardy) dialect into an StableHLO module, which is ready for "
        "StableHLO -> HLO conversion."
    )
    anchor = MODULE

    keep_hlo_sharding_constraints: bool = option(
        False,
        "Whether to convert SDY sharding constraints to @Sharding custom calls - the HLO sharding "
        "constraint op. Else export them to MHLO copy ops. By default, export to MHLO copy ops.",
    )
    add_missing_sharding_to_control_flow: bool = option(
        True, "Whether to add a sharding to a control flow op without one."
    )

    def steps(self) -> tuple[Step, ...]:
        keep = _flag(self.keep_hlo_sharding_constraints)
        return (
            PassStep("xla-sdy-stablehlo-export-manual-reduction-collectives"),
            PassStep("xla-sdy-export-ops", (("keep-hlo-sharding-constraints", keep),)),
            PassStep("xla-sdy-stablehlo-round-trip-shard-map-export", (("create-hlo-sharding-constraints", keep),)),
            PassStep("symbol-dce"),
            PassStep(
                "xla-sdy-stablehlo-export-shardings",
                (("add-missing-sharding-to-control-flow", _flag(self.add_missing_sharding_to_control_flow)),),
            ),
            PassStep("xla-sdy-stablehlo-round-trip-export-callback-custom-calls"),
        )

    def run(self, op: ir.Operation) -> None:
        run_steps_in_pass(op, self.steps(), self.argument)
