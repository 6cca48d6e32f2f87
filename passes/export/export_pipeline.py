"""`sdy-export-pipeline`: the export passes that follow propagation, in the order and under the options of jaxlib's Shardy."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.passes.common.save_module import save_module
from pysdy.passes.pipeline import NestedPipeline, PassStep, Step, run_steps_in_pass
from pysdy.passes.registry import FUNC, MODULE, Pass, option, register_pass


def _func(name: str, **options: bool) -> NestedPipeline:
    return NestedPipeline(FUNC, (_step(name, **options),))


def _step(name: str, **options) -> PassStep:
    def text(value) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    return PassStep(name, tuple((key.replace("_", "-"), text(value)) for key, value in options.items()))


def _canonicalize(label: str) -> PassStep:
    """MLIR's canonicalizer restricted to the sdy patterns carrying `label`."""
    return PassStep(
        "canonicalize", (("enable-patterns", label), ("region-simplify", "aggressive"), ("top-down", "false"))
    )


@register_pass
@dataclasses.dataclass(frozen=True)
class ExportPipelinePass(Pass):
    argument = "sdy-export-pipeline"
    summary = (
        "Run a sequence of export passes needed as a post-processing step for Shardy propagation"
    )
    anchor = MODULE

    dump_directory: str = option("", "Directory to dump intermediate MLIR modules.")
    avoid_export_for_partitioning: bool = option(
        False,
        "Avoid exporting the module for partitioning so that the module will be compatible for "
        "another round of propagation.",
    )
    enable_insert_explicit_collectives: bool = option(
        False, "Enable inserting explicit collective ops during export."
    )
    remove_all_gather_reduce_scatter_for_cmv1: bool = option(
        False, "Remove all-gather and reduce-scatter ops for CMV1."
    )
    keep_sharding_rules: bool = option(False, "Keep sdy.sharding_rule attrs.")
    dump_sharding_origins: bool = option(False, "Sink sdy.sharding_origins attr.")
    dump_propagation_edges: bool = option(False, "Sink sdy.propagation_edges attr.")
    avoid_reshards_on_calls: bool = option(
        False, "Avoid inserting explicit reshards/collectives for calls."
    )
    update_non_divisible_input_output_shardings: bool = option(
        True, "Update axes with non-divisible input/output shardings."
    )

    def steps(self) -> tuple[Step, ...]:
        """The export passes as `sdy-propagation-pipeline` runs them (jaxlib's export passes with these options,
        without the mesh inlining that ends the pipeline run on its own)."""
        return tuple(step for stage, _ in self._shared_stages() for step in stage)

    def stages(self) -> list[tuple[list[Step], str | None]]:
        """The steps of this pipeline run on its own, as jaxlib's `sdy-export-pipeline` expands with these
        options, in stages, each with the name of the module dump that follows it (if any)."""
        stages = self._shared_stages()
        if versions.installed().export_inlines_meshes and not self.avoid_export_for_partitioning:
            stages[-1][0].append(_step("sdy-inline-meshes"))
        return stages

    def _shared_stages(self) -> list[tuple[list[Step], str | None]]:
        steps: list[Step] = [
            _func("sdy-constant-or-scalar-merger"),
            _func(
                "sdy-sink-data-flow-edges",
                sink_debug_sharding_origins=self.dump_sharding_origins,
                sink_debug_propagation_edge_sharding=self.dump_propagation_edges,
            ),
        ]
        if not self.avoid_export_for_partitioning:
            steps += [_step("sdy-remove-sharding-groups"), _func("sdy-sharding-constraint-to-reshard")]
        if self.update_non_divisible_input_output_shardings:
            steps += [
                _step("sdy-update-non-divisible-input-output-shardings"),
                _step("sdy-remove-sub-axes-in-input-output-shardings"),
            ]
        steps.append(_step("sdy-close-shardings"))
        stages: list[tuple[list[Step], str | None]] = [(steps, "after_propagation")]
        if not self.avoid_export_for_partitioning:
            stages += self._partitioner_stages()
        last: list[Step] = []
        if self.dump_propagation_edges or self.dump_sharding_origins:
            last.append(_step("sdy-remove-propagation-debug-info"))
        if not self.keep_sharding_rules:
            last.append(_func("sdy-drop-sharding-rules"))
        return stages + [(last, None)]

    def _partitioner_stages(self) -> list[tuple[list[Step], str | None]]:
        line = versions.installed()
        collectives = self.enable_insert_explicit_collectives
        reshard_options = {"enable_full_version": collectives}
        if line.reshards_mark_partial_results_unreduced:
            reshard_options["mark_partial_result_with_unreduced_axes"] = False
        reshards: list[Step] = [_func("sdy-verify-unreduced-axes")] if line.verify_unreduced_axes else []
        reshards.append(_func("sdy-insert-explicit-reshards", **reshard_options))
        if not collectives:
            return [(reshards + [_canonicalize("sdy-collective")], _partitioner_dump("minimal_partitioner"))]
        steps = [_canonicalize("sdy-reshard"), _func("sdy-reshard-to-collectives")]
        if line.optimize_collectives:
            steps.append(_func("sdy-optimize-collectives"))
        steps.append(_canonicalize("sdy-collective"))
        if self.remove_all_gather_reduce_scatter_for_cmv1:
            steps.append(_func("sdy-remove-all-gather-reduce-scatter-for-cmv1"))
        return [(reshards, "after_explicit_reshards"), (steps, _partitioner_dump("partitioner"))]

    def run(self, op: ir.Operation) -> None:
        """Runs the stages, dumping the module after each (numbered from 00) when `dump-directory` is set."""
        dumps = 0
        for steps, dump_name in self.stages():
            run_steps_in_pass(op, tuple(steps), self.argument)
            if dump_name is not None and self.dump_directory:
                save_module(op, self.dump_directory, f"{dumps:02}.{dump_name}")
                dumps += 1


def _partitioner_dump(partitioner: str) -> str:
    """The name of the dump after the partitioner's passes: `after_partitioner_passes`, or on the lines that name
    which partitioner ran, `after_<partitioner>_with_global_shapes`."""
    if versions.installed().export_dump_names_partitioner_passes:
        return "after_partitioner_passes"
    return f"after_{partitioner}_with_global_shapes"
