"""What pysdy does to a module before XLA gets it: import from GSPMD form, propagation, and the route's hand-off form.

Used by the runtime (`pysdy-run`) and by `pysdy.jax`, so both hand XLA the
same module. Failures are the passes' `ir.MLIRError`s, which callers word, and RuntimeInputError.
"""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.passes.common.func_attrs import function_type
from pysdy.passes.pipeline import parse_pipeline, run_pipeline
from pysdy.runtime.expanding_broadcasts import split_expanding_broadcasts
from pysdy.runtime.manual_wrapping import wrap_in_manual_computation
from pysdy.runtime.module_info import main_function, read_module_info
from pysdy.runtime.shardings_as_constraints import shardings_as_constraints
from pysdy.runtime.unreduced_sources import refuse_unreduced_from_replicated
from pysdy.runtime.unsharded_as_replicated import replicate_unsharded
from pysdy.runtime.xla_limits import pin_loop_invariants, reshards_as_constraints, unify_branch_results

ROUTES = ("gspmd", "sdy")
# The route on which pysdy partitions the module itself and XLA only compiles the per-device program (pysdy-run
# runs it piece by piece, per_device.py; pysdy.jax hands it over in one fully manual computation).
PARTITIONING_ROUTE = "pysdy"
IMPORT_PIPELINE = "xla-sdy-stablehlo-import-pipeline"
PROPAGATION_PIPELINE = "sdy-propagation-pipeline"
# Before the gspmd route's propagation, which is final: the calls XLA's CPU compiler inlines before its own.
INLINE_CALLS = "pysdy-inline-calls"
# What XLA's Shardy partitioner takes: it runs propagation and its export itself, so pysdy's result must stay
# re-propagatable (no reshards or collectives, which jaxlib's compile path cannot carry into XLA's HLO).
PROPAGATION_PIPELINE_FOR_SHARDY = "sdy-propagation-pipeline{avoid-export-for-partitioning=true}"
EXPORT_PIPELINE = "xla-sdy-stablehlo-export-pipeline"
# The ops whose shardings the gspmd route hands over as constraints (shardings_as_constraints.py).
BARRIERS = ("stablehlo.optimization_barrier",)


def in_gspmd_form(module: ir.Module) -> bool:
    """Whether the module carries `mhlo.sharding`s and no mesh (GSPMD's form, or JAX without Shardy)."""
    if any(op.operation.name == "sdy.mesh" for op in module.body.operations):
        return False
    return "mhlo.sharding" in module.operation.get_asm()


def propagation_pipelines(module: ir.Module, route: str) -> list[str]:
    """The pipelines `propagate` runs on `module` for `route`."""
    imported = [IMPORT_PIPELINE] if in_gspmd_form(module) else []
    if route == "sdy":
        return [*imported, PROPAGATION_PIPELINE_FOR_SHARDY]
    if route == PARTITIONING_ROUTE:
        return [*imported, PROPAGATION_PIPELINE]
    return [INLINE_CALLS, *imported, PROPAGATION_PIPELINE]


def propagate(module: ir.Module, route: str) -> list[str]:
    """Imports a module in GSPMD form, then runs `sdy-propagation-pipeline` (for the sdy route, in the form XLA's
    Shardy partitioner propagates again; for the gspmd route, on the module with its calls inlined as XLA inlines
    them); returns the pipelines run."""
    steps = propagation_pipelines(module, route)
    for step in steps:
        run_pipeline(module, parse_pipeline(step))
    return steps


def partitioning_steps(partitions: int) -> str:
    """What pysdy's own partitioner runs after propagation: explicit collectives, then local shapes (replica groups
    as device ids, which every line's XLA reads)."""
    options = ["enable-rgv3=false"]
    if versions.installed().convert_global_to_local_device_counts:
        options.append(f"partition-count={partitions}")
    return f"sdy-export-pipeline{{enable-insert-explicit-collectives=true}},sdy-convert-global-to-local{{{' '.join(options)}}}"


def partitioner_pipeline(partitions: int) -> str:
    """pysdy's own partitioner: propagation, then `partitioning_steps`."""
    return f"{PROPAGATION_PIPELINE},{partitioning_steps(partitions)}"


def prepare_for_xla(module: ir.Module, route: str) -> list[str]:
    """Turns a propagated module into what XLA compiles on `route`; returns a note per sharding changed for XLA.

    gspmd: the loops XLA rejects are rewritten into equivalent ones
    (xla_limits.py), a module that makes unreduced axes out of replicated values
    is refused (RuntimeInputError, see unreduced_sources.py), the broadcasts
    XLA's translation would shard badly are split (expanding_broadcasts.py),
    ops left unsharded are replicated (unsharded_as_replicated.py),
    optimization barriers hand their shardings over as constraints
    (shardings_as_constraints.py), then `xla-sdy-stablehlo-export-pipeline`. sdy: branch results are unified,
    reshards become constraints (xla_limits.py), and every op's sharding is
    handed over as constraints on its results, as JAX writes shardings
    (shardings_as_constraints.py). pysdy: pysdy partitions the module (`partitioning_steps`) and the per-device
    program goes in one fully manual computation (manual_wrapping.py).
    """
    if route == PARTITIONING_ROUTE:
        global_types = function_type(main_function(module))
        partitions = _partitions(module)
        run_pipeline(module, parse_pipeline(partitioning_steps(partitions)))
        wrap_in_manual_computation(module, global_types, partitions)
        return []
    if route == "gspmd":
        refuse_unreduced_from_replicated(module)
        split_expanding_broadcasts(module)
        pin_loop_invariants(module)
        replicate_unsharded(module, skipped=BARRIERS)
        shardings_as_constraints(module, only_on=BARRIERS)
        run_pipeline(module, parse_pipeline(EXPORT_PIPELINE))
        return []
    unify_branch_results(module)
    notes = reshards_as_constraints(module)
    shardings_as_constraints(module)
    pin_loop_invariants(module, in_manual_computations=False)  # the loops that keep their sharding
    return notes


def _partitions(module: ir.Module) -> int:
    """The partition count the module declares (JAX writes `mhlo.num_partitions`), else its mesh's device count."""
    attributes = module.operation.attributes
    if "mhlo.num_partitions" in attributes:
        return ir.IntegerAttr(attributes["mhlo.num_partitions"]).value
    return read_module_info(module).mesh_device_count()
