"""Maximal shardings on pysdy's GSPMD path. A PyTorch/XLA-style GSPMD module with `{maximal device=N}` shardings
beside tiled ones: import, propagation (against jaxlib's C++), export (against XLA's own), and a partitioned run
(against the same module run unpartitioned on one device). JAX's host-callback programs: export against XLA's."""

from __future__ import annotations

import jax_corpus
import pytest
from jaxlib.mlir import ir
from oracle import cpp_output
from runtime_runs import checked_run
from xla_export_oracle import assert_exports_as_xla

from pysdy import versions
from pysdy.dialects.context import make_context
from pysdy.passes.gspmd.hlo_to_sdy_sharding import maximal_mesh_name
from pysdy.passes.pipeline import parse_pipeline, run_pipeline
from pysdy.runtime.errors import RuntimeInputError

# A maximal parameter, a maximal intermediate, a maximal `Sharding` custom call, and tiled device lists.
PYTORCH_XLA_MAXIMAL = """
module @pytorch_xla_maximal attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%arg0: tensor<16x32xf32> {mhlo.sharding = "{devices=[2,2]0,1,2,3}"}, %arg1: tensor<32x8xf32>,
                  %arg2: tensor<16x8xf32> {mhlo.sharding = "{maximal device=1}"}) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
    %0 = stablehlo.custom_call @Sharding(%arg1) {mhlo.sharding = "{devices=[2,1,2]0,2,1,3 last_tile_dim_replicate}"} : (tensor<32x8xf32>) -> tensor<32x8xf32>
    %1 = stablehlo.dot_general %arg0, %0, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
    %2 = stablehlo.add %1, %arg2 : tensor<16x8xf32>
    %3 = stablehlo.tanh %2 {mhlo.sharding = "{maximal device=2}"} : tensor<16x8xf32>
    %4 = stablehlo.multiply %3, %1 : tensor<16x8xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {mhlo.sharding = "{maximal device=3}"} : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %6 = stablehlo.exponential %5 : tensor<16x8xf32>
    return %6, %1 : tensor<16x8xf32>, tensor<16x8xf32>
  }
}
"""


def _run(text: str, pipeline: str) -> str:
    """`text` after pysdy's `pipeline`."""
    with make_context():
        module = ir.Module.parse(text)
        run_pipeline(module, parse_pipeline(f"builtin.module({pipeline})"))
        return str(module)


def _imported() -> str:
    return _run(PYTORCH_XLA_MAXIMAL, "xla-sdy-stablehlo-import-pipeline")


def test_import_gives_one_maximal_mesh_per_device():
    imported = _imported()
    for device in (1, 2, 3):
        assert f"sdy.mesh @{maximal_mesh_name(device)} = <[], device_ids=[{device}]>" in imported
    assert f"%arg2: tensor<16x8xf32> {{sdy.sharding = #sdy.sharding<@{maximal_mesh_name(1)}, []>}}" in imported
    assert f"sdy.sharding_constraint %4 <@{maximal_mesh_name(3)}, []>" in imported


# From jaxlib 0.11, Shardy's explicit reshards (in its propagation pipeline, and in XLA's) refuse the maximal
# argument %arg2 (versions.explicit_reshards_refuse_maximal_func_shardings).
REFUSED = versions.installed().explicit_reshards_refuse_maximal_func_shardings
REFUSAL = "function argument 2 cannot have a single-device"


def _outcome(run, *arguments) -> str:
    """The module `run` returns, or its first error line."""
    try:
        return run(*arguments)
    except ir.MLIRError as error:
        return "error: " + next(line for line in str(error).splitlines() if "error:" in line).split("error: ", 1)[1]


@pytest.mark.parametrize("pipeline", ["sdy-propagation-pipeline", "sdy-propagation-pipeline,sdy-export-pipeline"])
def test_imported_module_propagates_as_cpp(pipeline):
    imported = _imported()
    expected = _outcome(cpp_output, imported, pipeline)
    assert (REFUSAL in expected) == REFUSED
    assert _outcome(_run, imported, pipeline) == expected


@pytest.mark.skipif(REFUSED, reason="jaxlib's Shardy propagation refuses the module's maximal argument")
def test_propagated_module_exports_as_xla():
    assert_exports_as_xla(cpp_output(_imported(), "sdy-propagation-pipeline"), num_partitions=4)


@pytest.mark.parametrize("route", ["gspmd", "sdy"])
def test_partitioned_run_equals_one_device(route):
    if REFUSED:
        with pytest.raises(RuntimeInputError, match=REFUSAL):
            checked_run(PYTORCH_XLA_MAXIMAL, route)
        return
    check = checked_run(PYTORCH_XLA_MAXIMAL, route).check
    assert check.passed, f"{route} against {check.reference}: {check.mismatches}"


# The corpus's host-callback programs but the loop, whose loop-invariant state makes XLA's HLO translation abort
# on XLA's own export as on pysdy's (see XLA_ABORTS_ON_EXPORTED_LOOPS in test_export_pipeline.py).
HOST_CALLBACK_PROGRAMS = ["io_callback_on_sharded_input", "ordered_io_callback_and_debug_print"]


@pytest.mark.parametrize("name", HOST_CALLBACK_PROGRAMS)
def test_host_callback_programs_export_as_xla(name):
    propagated = cpp_output(getattr(jax_corpus, name)(), "sdy-propagation-pipeline")
    exported = assert_exports_as_xla(propagated)
    assert '"{maximal device=0}"' in exported
