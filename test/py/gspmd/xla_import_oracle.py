"""XLA's own `xla-sdy-stablehlo-import-pipeline`, reached through jaxlib's compile, as the oracle for pysdy's import.

XLA's Shardy pass (`ShardyXLA`) runs its StableHLO import pipeline instead of
the round-trip one on a module whose frontend attributes hold
`xla.sdy.import_mhlo_shardings`, and dumps the module it hands to
propagation (`*.before_propagation.mlir`) when asked to. jaxlib falls back
to GSPMD before that for a module with GSPMD constraints (a `stablehlo.custom_call
@Sharding` with an `mhlo.sharding`, or `mhlo.sharding`s on @main's results), so
the constraints are written as `mhlo.custom_call`s (the HLO they become is the
same) and @main's result shardings are left out. XLA converts the module to HLO
and back before importing it, so the dump is XLA's import of that HLO: calls
may be inlined, ops reordered and unused ones gone, but every sharding is
XLA's own. XLA runs in a child process (child_process.py): an abort there fails the test that met it.
"""

from __future__ import annotations

import glob
import os
import tempfile

import jax

jax.config.update("jax_num_cpu_devices", 8)

import numpy as np  # noqa: E402
from child_process import in_child_process  # noqa: E402
from jax._src import xla_bridge  # noqa: E402
from jax._src.lib import xla_client as xc  # noqa: E402
from jaxlib.mlir import ir  # noqa: E402

from pysdy.dialects.context import make_context  # noqa: E402
from pysdy.passes.common import func_attrs  # noqa: E402
from pysdy.passes.import_.symbols import symbol_name  # noqa: E402
from pysdy.passes.pipeline import functions_of  # noqa: E402

DEVICES = 8
IMPORT_MHLO_SHARDINGS = "xla.sdy.import_mhlo_shardings"
FRONTEND_ATTRIBUTES = "mhlo.frontend_attributes"


def _for_shardy_import(gspmd_text: str) -> str:
    """The module marked for XLA's StableHLO import, written so that jaxlib does not fall back to GSPMD."""
    with make_context():
        module = ir.Module.parse(gspmd_text)
        top = module.operation
        entries = dict(ir.DictAttr(top.attributes[FRONTEND_ATTRIBUTES])) if FRONTEND_ATTRIBUTES in top.attributes else {}
        entries[IMPORT_MHLO_SHARDINGS] = ir.StringAttr.get("true")
        top.attributes[FRONTEND_ATTRIBUTES] = ir.DictAttr.get(entries)
        main = next(func for func in functions_of(top) if symbol_name(func) == "main")
        func_attrs.set_result_attrs(main, dict.fromkeys(range(func_attrs.num_results(main))), "mhlo.sharding")
        text = str(module)
    return text.replace("stablehlo.custom_call @Sharding(", "mhlo.custom_call @Sharding(")


def _compile_options(dump_to: str) -> xc.CompileOptions:
    options = xc.CompileOptions()
    build = options.executable_build_options
    build.num_partitions = DEVICES
    build.num_replicas = 1
    build.use_spmd_partitioning = True
    build.use_shardy_partitioner = True
    build.device_assignment = xc.DeviceAssignment.create(np.arange(DEVICES).reshape(1, DEVICES))
    build.debug_options.xla_dump_to = dump_to
    build.debug_options.xla_dump_hlo_pass_re = "shardy-xla"
    return options


@in_child_process
def xla_import(gspmd_text: str) -> str:
    """XLA's import of a module with `mhlo.sharding`s (without @main's result shardings), as XLA dumps it."""
    backend = xla_bridge.get_backend("cpu")
    devices = xc._xla.DeviceList(tuple(backend.devices()[:DEVICES]))
    programs = xc._xla.ifrt_programs
    with tempfile.TemporaryDirectory() as directory:
        options = programs.make_xla_compile_options(_compile_options(directory), devices, [])
        try:
            backend.compile_and_load_ifrt_program(programs.make_hlo_program(_for_shardy_import(gspmd_text)), options)
        except xc.XlaRuntimeError:
            pass  # partitioning may fail after the import; the dump is already written
        dumps = glob.glob(os.path.join(directory, "shardy", "*", "*.before_propagation.mlir"))
        assert len(dumps) == 1, f"XLA did not run its Shardy import: {os.listdir(directory)}"
        with open(dumps[0]) as dump:
            return dump.read()
