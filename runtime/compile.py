"""Compiling a module for N devices through jaxlib's PJRT client, on the GSPMD route (default), the sdy route, or the
pysdy route (per_device.py: pysdy partitions, XLA compiles the per-device program).

GSPMD route: pysdy's `sdy-propagation-pipeline`, then pysdy's
`xla-sdy-stablehlo-export-pipeline` (shardings as `mhlo.sharding`), then XLA
with `use_spmd_partitioning=True, use_shardy_partitioner=False`.
sdy route: the module after pysdy's propagation, in the re-propagatable form
XLA's Shardy partitioner takes (`avoid-export-for-partitioning`), to XLA with
`use_shardy_partitioner=True`.
A module in GSPMD form (`mhlo.sharding`, no `sdy.mesh`) is first imported
with pysdy's `xla-sdy-stablehlo-import-pipeline`.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from jax._src import xla_bridge
from jax._src.lib import xla_client as xc
from jaxlib.mlir import ir

from pysdy.dialects.context import make_context
from pysdy.runtime.devices import partition_count, select_devices
from pysdy.runtime.errors import RuntimeInputError
from pysdy.runtime.host_libraries import prepare_libraries_for
from pysdy.runtime.module_info import ModuleInfo, parse_module, read_module_info
from pysdy.runtime.pysdy_passes import EXPORT_PIPELINE, PARTITIONING_ROUTE, ROUTES, prepare_for_xla, propagate


@dataclasses.dataclass
class CompiledModule:
    """An XLA executable for `devices` with the texts that led to it and what was changed for XLA's sake."""

    route: str
    devices: list
    info: ModuleInfo
    pipeline: str
    propagated_text: str
    compiled_text: str
    executable: object
    notes: list[str]
    per_device: object = None  # on the pysdy route: the PerDeviceProgram (per_device.py) the executable runs

    @property
    def parameter_shardings(self) -> list:
        return [xc.HloSharding.from_proto(p) for p in self.executable.get_parameter_shardings()]

    @property
    def output_shardings(self) -> list:
        return [xc.HloSharding.from_proto(p) for p in self.executable.get_output_shardings()]

    def partitioned_hlo(self) -> str:
        """The HLO XLA compiled, after partitioning and optimization."""
        return self.executable.hlo_modules()[0].to_string()


def compile_options(devices: list, shardy: bool, partitioned: bool = True) -> xc.CompileOptions:
    options = xc.CompileOptions()
    build = options.executable_build_options
    build.num_replicas = 1
    build.num_partitions = len(devices)
    build.use_spmd_partitioning = partitioned
    build.use_shardy_partitioner = shardy
    build.device_assignment = xc.DeviceAssignment.create(np.array([[device.id for device in devices]]))
    return options


def xla_compile(text: str, devices: list, options: xc.CompileOptions):
    """The loaded executable XLA makes of `text` for `devices`, or a RuntimeInputError with XLA's message."""
    backend = xla_bridge.get_backend(devices[0].platform)
    prepare_libraries_for(text)
    try:
        return backend.compile_and_load(text, xc._xla.DeviceList(tuple(devices)), options)
    except xc.XlaRuntimeError as error:
        raise RuntimeInputError(f"XLA could not compile the module: {error}") from None


def _set_partitions(module: ir.Module, count: int) -> None:
    attributes = module.operation.attributes
    attributes["mhlo.num_partitions"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), count)


def compile_module(
    text: str,
    devices: int | None = None,
    route: str = "gspmd",
    backend: str | None = None,
    source_name: str = "<module>",
) -> CompiledModule:
    """`text` propagated by pysdy and compiled by XLA for `devices` partitions (default: what the module declares)."""
    if route == PARTITIONING_ROUTE:
        from pysdy.runtime.per_device import compile_partitioned  # it builds on this module's compiling

        return compile_partitioned(text, devices, backend, source_name)
    if route not in ROUTES:
        raise RuntimeInputError(f"unknown route '{route}': use one of {', '.join(ROUTES + (PARTITIONING_ROUTE,))}")
    with make_context():
        module = parse_module(text, source_name)
        try:
            steps = propagate(module, route)
            info = read_module_info(module)
            count = partition_count(info, devices)
            chosen = select_devices(count, backend)
            _set_partitions(module, count)
            propagated_text = str(module)
            notes = prepare_for_xla(module, route)
        except ir.MLIRError as error:
            raise RuntimeInputError(f"pysdy's passes failed: {error}") from None
        if route == "gspmd":
            steps.append(EXPORT_PIPELINE)
        compiled_text = module.operation.get_asm(enable_debug_info=True)  # XLA keeps the source lines as metadata
    executable = xla_compile(compiled_text, chosen, compile_options(chosen, shardy=route == "sdy"))
    return CompiledModule(route, chosen, info, ",".join(steps), propagated_text, compiled_text, executable, notes)
