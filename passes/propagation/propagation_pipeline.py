"""`sdy-propagation-pipeline`: import, user-priority propagation and export, as the installed jaxlib expands it.

The steps are jaxlib's own expansion of the pipeline (printed from its pass
manager), every `sdy-*` step being pysdy's Python pass; `symbol-dce` is
MLIR's. jaxlib's `sdy-save-module` steps are left out: they dump nothing
without a dump directory, and this pipeline has no option to set one.
`enable-explicit-gather-scatter-batching` adds the step jaxlib's C++ adds for
`PropagationOptions::enableExplicitGatherScatterBatching`, and
`avoid-export-for-partitioning` ends with the export passes of
`sdy-export-pipeline{avoid-export-for-partitioning=true}`, as the C++ does for
`PropagationOptions::avoidExportForPartitioning`: jaxlib's text pipeline can set neither.
"""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.passes.export.export_pipeline import ExportPipelinePass
from pysdy.passes.import_.import_pipeline import EXPLICIT_GATHER_SCATTER_BATCHING_HELP
from pysdy.passes.pipeline import NestedPipeline, PassStep, Step, run_steps_in_pass
from pysdy.passes.registry import FUNC, MODULE, Pass, option, register_pass


def _steps(*names: str) -> list[Step]:
    return [PassStep(name) for name in names]


@register_pass
@dataclasses.dataclass(frozen=True)
class PropagationPipelinePass(Pass):
    argument = "sdy-propagation-pipeline"
    summary = (
        "Runs the SDY propagation pass, preceded by a sequence of import passes needed as a "
        "pre-processing step for propagation"
    )
    anchor = MODULE

    dedup_functions_fully: bool = option(
        False, "whether to keep one function per callee instead of flattening the call graph"
    )
    enable_explicit_gather_scatter_batching: bool = option(False, EXPLICIT_GATHER_SCATTER_BATCHING_HELP)
    avoid_export_for_partitioning: bool = option(
        False,
        "Leave the module ready for another round of propagation (no reshards, collectives or sharding-group "
        "removal), as a partitioner that propagates again expects it; pysdy's text spelling of Shardy's C++ "
        "PropagationOptions::avoidExportForPartitioning.",
    )

    def steps(self) -> tuple[Step, ...]:
        steps = _steps(
            "symbol-dce",
            "sdy-lift-inlined-meshes",
            "sdy-remove-size-one-axes",
            "sdy-propagate-sharding-from-func-to-call",
            "sdy-constant-or-scalar-splitter",
        )
        if self.enable_explicit_gather_scatter_batching:
            steps.append(NestedPipeline(FUNC, (PassStep("sdy-explicit-gather-scatter-batching"),)))
        steps += _steps("symbol-dce", "sdy-manual-axes-cleanup", "sdy-add-data-flow-edges")
        if self.dedup_functions_fully:
            steps += _steps("sdy-apply-sharding-constraints", "sdy-sharding-group-import", "sdy-add-func-data-flow-edges")
        elif versions.installed().import_calls_after_func_edges:
            steps += _steps("sdy-flatten-call-graph", "symbol-dce", "sdy-add-func-data-flow-edges")
            steps += _steps("sdy-apply-sharding-constraints")
            steps.append(NestedPipeline(FUNC, (PassStep("sdy-sink-func-data-flow-edges"),)))
            steps += _steps("sdy-sharding-group-import")
            steps.append(PassStep("sdy-import-func-calls", (("add-data-flow-edges-on-named-computations", "true"),)))
            steps += _steps("symbol-dce")
        else:
            steps += _steps("sdy-flatten-call-graph", "symbol-dce")
            steps.append(PassStep("sdy-import-func-calls", (("add-data-flow-edges-on-named-computations", "true"),)))
            steps += _steps("symbol-dce", "sdy-apply-sharding-constraints", "sdy-sharding-group-import")
        steps += _steps("sdy-pre-order-funcs")
        steps.append(PassStep("sdy-user-priority-propagate", (("keep-sharding-rules", "true"),)))
        if self.dedup_functions_fully:
            steps += [PassStep("sdy-propagate-to-func-results"), NestedPipeline(FUNC, (PassStep("sdy-sink-func-data-flow-edges"),))]
        else:
            steps += _steps("sdy-export-named-computations", "sdy-propagate-to-func-results")
        steps.append(PassStep("sdy-unflatten-call-graph", (("dedup-functions-fully", "false"),)))
        steps += _steps("symbol-dce", "sdy-insert-func-call-reshards")
        return tuple(steps) + ExportPipelinePass(avoid_export_for_partitioning=self.avoid_export_for_partitioning).steps()

    def run(self, op: ir.Operation) -> None:
        run_steps_in_pass(op, self.steps(), self.argument)
