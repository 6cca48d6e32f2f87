"""XLA's own `xla-sdy-stablehlo-export-pipeline` and GSPMD compiler, reached through jaxlib, as oracles for pysdy's export.

jaxlib does not expose the export pipeline as a pass, but runs it when it
compiles an sdy module that also holds a GSPMD constraint (a `@Sharding`
custom call with an `mhlo.sharding`) with the Shardy partitioner on: XLA then
falls back to GSPMD and exports the module with `keep-hlo-sharding-constraints
=true` and `add-missing-sharding-to-control-flow=false` (jaxlib's
`ExportShardyForGSPMD`). The HLO it converts the result to is dumped before
any optimization. pysdy's export of the same module, with the same options,
converted to HLO by the same translation (jaxlib's GSPMD compile), must print
the same entry computation.

XLA runs in a child process (child_process.py): an abort there fails the test that met it.
"""

from __future__ import annotations

import glob
import os
import tempfile

import jax

jax.config.update("jax_num_cpu_devices", 8)

import numpy as np  # noqa: E402
import xla_oracle  # noqa: E402
from child_process import in_child_process  # noqa: E402
from jax._src import xla_bridge  # noqa: E402
from jax._src.lib import xla_client as xc  # noqa: E402
from jaxlib.mlir import ir  # noqa: E402

from pysdy.dialects.context import make_context  # noqa: E402
from pysdy.passes.pipeline import parse_pipeline, run_pipeline  # noqa: E402

DEVICES = 8
# The options jaxlib's GSPMD fallback runs the export with.
FALLBACK_OPTIONS = "keep-hlo-sharding-constraints=true add-missing-sharding-to-control-flow=false"
_GSPMD_TRIGGER = '"stablehlo.custom_call"(%0) {call_target_name = "Sharding", mhlo.sharding = "{replicated}"}'


def compile_options(num_partitions: int, shardy: bool, dump_to: str | None = None) -> xc.CompileOptions:
    options = xc.CompileOptions()
    build = options.executable_build_options
    build.num_partitions = num_partitions
    build.num_replicas = 1
    build.use_spmd_partitioning = True
    build.use_shardy_partitioner = shardy
    build.device_assignment = xc.DeviceAssignment.create(np.arange(num_partitions).reshape(1, num_partitions))
    if dump_to is not None:
        build.debug_options.xla_dump_to = dump_to
        build.debug_options.xla_dump_hlo_as_text = True
    return options


def compile_module(text: str, num_partitions: int, shardy: bool, dump_to: str | None = None):
    backend = xla_bridge.get_backend("cpu")
    devices = xc.DeviceList(tuple(backend.devices()[:num_partitions]))
    return backend.compile_and_load(text, devices, compile_options(num_partitions, shardy, dump_to))


@in_child_process
def compiled_shardings(text: str, num_partitions: int, shardy: bool) -> tuple[list[str], list[str]]:
    """The parameter and output shardings of XLA's executable for the module, as XLA prints them."""
    executable = compile_module(text, num_partitions, shardy)
    return _printed(executable.get_parameter_shardings()), _printed(executable.get_output_shardings())


def _printed(shardings) -> list[str]:
    return [str(xc.HloSharding.from_proto(sharding)) for sharding in shardings]


def canonical_entry(hlo_text: str) -> str:
    """The entry computation (with the computations it calls inlined), names canonicalized, no metadata."""
    options = xc.hlo.HloPrintOptions.canonical()
    options.print_metadata = False
    printed = xc.hlo.hlo_module_from_text(hlo_text).to_string(options)
    entry = printed[printed.index("\nENTRY ") + 1 :]
    header, _, body = entry.partition("\n")
    return "ENTRY {\n" + body.strip()


def with_gspmd_trigger(module_text: str) -> str:
    """The module with a dead `@Sharding` custom call on a new constant at the top of `main`, which makes
    jaxlib export it for GSPMD (the HLO conversion drops both again)."""
    with make_context():
        module = ir.Module.parse(module_text)
        main = next(op for op in module.body.operations if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == "main")
        block = main.regions[0].blocks[0]
        snippet = ir.Module.parse(
            "func.func @f() {\n  %0 = stablehlo.constant dense<0.0> : tensor<f32>\n"
            f"  %1 = {_GSPMD_TRIGGER} : (tensor<f32>) -> tensor<f32>\n  return\n}}"
        )
        ops = list(snippet.body.operations[0].regions[0].blocks[0].operations)[:2]
        first = block.operations[0]
        for op in ops:
            op.operation.move_before(first)
        return str(module)


def _hlo_before_optimizations(text: str, num_partitions: int, shardy: bool) -> str:
    """The canonical entry computation of the HLO jaxlib's compile makes of a module, before XLA optimizes it."""
    with tempfile.TemporaryDirectory() as directory:
        try:
            compile_module(text, num_partitions, shardy, dump_to=directory)
        except xc.XlaRuntimeError:
            pass  # partitioning may fail after the translation; the dump is already written
        dumps = glob.glob(os.path.join(directory, "*before_optimizations.txt"))
        assert len(dumps) == 1, f"XLA did not translate the module: {os.listdir(directory)}"
        with open(dumps[0]) as dump:
            return canonical_entry(dump.read())


@in_child_process
def xla_export(module_text: str, num_partitions: int = DEVICES) -> str:
    """XLA's export of an sdy module, as the canonical entry computation of the HLO it becomes."""
    return _hlo_before_optimizations(with_gspmd_trigger(module_text), num_partitions, shardy=True)


def pysdy_export(module_text: str, options: str = FALLBACK_OPTIONS, before: str = "") -> str:
    """pysdy's `xla-sdy-stablehlo-export-pipeline` (after the `before` passes) on the module, printed."""
    pipeline = f"{before},xla-sdy-stablehlo-export-pipeline{{{options}}}" if before else f"xla-sdy-stablehlo-export-pipeline{{{options}}}"
    with make_context():
        module = ir.Module.parse(module_text)
        run_pipeline(module, parse_pipeline(f"builtin.module({pipeline})"))
        return str(module)


@in_child_process
def hlo_of(stablehlo_text: str, num_partitions: int = DEVICES) -> str:
    """The canonical entry computation of a StableHLO module with `mhlo.sharding`s, as jaxlib's GSPMD compile
    translates it (the translation XLA's export above goes through: jaxlib 0.12's leaves a multi-result op's
    get-tuple-elements unsharded, its `mlir_module_to_xla_computation` does not)."""
    return _hlo_before_optimizations(stablehlo_text, num_partitions, shardy=False)


def assert_exports_as_xla(module_text: str, num_partitions: int = DEVICES) -> str:
    """pysdy's export of `module_text` becomes the same HLO as XLA's own export; returns pysdy's module."""
    exported = pysdy_export(module_text)
    xla_oracle.checks["xla"] += 1
    assert hlo_of(exported, num_partitions) == xla_export(module_text, num_partitions)
    return exported
