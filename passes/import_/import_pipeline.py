"""`sdy-import-pipeline`: the import passes Shardy runs before propagation, in Shardy's order."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.import_.add_data_flow_edges import AddDataFlowEdgesPass
from pysdy.passes.import_.apply_sharding_constraints import ApplyShardingConstraintsPass
from pysdy.passes.import_.constant_or_scalar_splitter import ConstantOrScalarSplitterPass
from pysdy.passes.import_.explicit_gather_scatter_batching import ExplicitGatherScatterBatchingPass
from pysdy.passes.import_.lift_inlined_meshes import LiftInlinedMeshesPass
from pysdy.passes.import_.manual_axes_cleanup import ManualAxesCleanupPass
from pysdy.passes.import_.propagate_sharding_from_func_to_call import PropagateShardingFromFuncToCallPass
from pysdy.passes.import_.remove_size_one_axes import RemoveSizeOneAxesPass
from pysdy.passes.import_.sharding_group_import import ShardingGroupImportPass
from pysdy.passes.pipeline import run_pass_on, symbol_dce
from pysdy.passes.registry import Pass, option, register_pass

EXPLICIT_GATHER_SCATTER_BATCHING_HELP = (
    "Run sdy-explicit-gather-scatter-batching after sdy-constant-or-scalar-splitter; pysdy's text spelling "
    "of Shardy's C++ PropagationOptions::enableExplicitGatherScatterBatching, which jaxlib's pipelines "
    "have no text option for."
)


@register_pass
@dataclasses.dataclass(frozen=True)
class ImportPipelinePass(Pass):
    argument = "sdy-import-pipeline"
    summary = "Run a sequence of import passes needed as a pre-processing step for Shardy propagation"

    dedup_functions_fully: bool = option(False, "Whether to dedup functions fully.")
    enable_explicit_gather_scatter_batching: bool = option(False, EXPLICIT_GATHER_SCATTER_BATCHING_HELP)

    def run(self, op: ir.Operation) -> None:
        # symbol-dce is MLIR's own, as in sdy-propagation-pipeline: a Python walk of every attribute
        # looking for symbol references cost a quarter of this pipeline.
        symbol_dce(op)
        LiftInlinedMeshesPass().run(op)
        RemoveSizeOneAxesPass().run(op)
        PropagateShardingFromFuncToCallPass().run(op)
        ConstantOrScalarSplitterPass().run(op)
        if self.enable_explicit_gather_scatter_batching:
            run_pass_on(ExplicitGatherScatterBatchingPass(), op)
        symbol_dce(op)
        ManualAxesCleanupPass().run(op)
        AddDataFlowEdgesPass().run(op)
        # With `dedup-functions-fully`, propagation keeps the call graph, so the rest of the import
        # happens here rather than after the propagation pipeline flattens and imports the calls.
        if self.dedup_functions_fully:
            ApplyShardingConstraintsPass().run(op)
            ShardingGroupImportPass().run(op)
