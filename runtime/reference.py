"""The reference run for `--check`: the same module without its shardings, compiled for and run on one device.

Stripping shardings keeps a module's meaning only where they are annotations:
a module with manual code (`sdy.manual_computation`, shard_map's per-device
collectives) or GSPMD's manual custom calls means something else on one
device. Such a module is checked against XLA's own partitioner instead: the
original module compiled by XLA's Shardy (the way JAX runs it) on the same
devices, which shares nothing with pysdy's passes.
"""

from __future__ import annotations

import dataclasses

import jax
import numpy as np
from jaxlib.mlir import ir

from pysdy.dialects.context import make_context
from pysdy.passes.common.custom_calls import custom_call_target
from pysdy.passes.common.func_attrs import num_arguments, num_results, set_arg_attrs, set_result_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.runtime.compile import CompiledModule, compile_options, xla_compile
from pysdy.runtime.execute import execute
from pysdy.runtime.module_info import parse_module, read_module_info

_FORWARDING_OPS = {"sdy.sharding_constraint", "sdy.reshard"}
_GSPMD_ANNOTATIONS = {"Sharding"}
_GSPMD_MANUAL = {"SPMDFullToShardShape", "SPMDShardToFullShape"}
_SHARDING_ATTRIBUTES = ("sdy.sharding", "mhlo.sharding")


@dataclasses.dataclass(frozen=True)
class Reference:
    """Reference outputs and how they were made (`one device, unpartitioned` or `XLA's Shardy on N devices`)."""

    outputs: list[np.ndarray]
    description: str


def unpartitioned_text(text: str) -> str | None:
    """`text` with every sharding annotation removed, or None if it holds manual (per-device) code."""
    with make_context():
        module = parse_module(text)
        for op in nested_ops(module.operation):
            name = op.name
            target = custom_call_target(op)
            if name == "sdy.manual_computation" or target in _GSPMD_MANUAL:
                return None
            if name in _FORWARDING_OPS or target in _GSPMD_ANNOTATIONS:
                op.results[0].replace_all_uses_with(op.operands[0])
                op.erase()
            elif name in ("sdy.mesh", "sdy.sharding_group"):
                op.erase()
            elif name.startswith("sdy."):
                return None
            elif name == "func.func":
                for attribute in _SHARDING_ATTRIBUTES:
                    set_arg_attrs(op, {i: None for i in range(num_arguments(op))}, attribute)
                    set_result_attrs(op, {i: None for i in range(num_results(op))}, attribute)
            else:
                for attribute in _SHARDING_ATTRIBUTES:
                    if attribute in op.attributes:
                        del op.attributes[attribute]
        attributes = module.operation.attributes
        attributes["mhlo.num_partitions"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 1)
        return str(module)


def xla_shardy_outputs(text: str, devices: list, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """main's outputs for `inputs` from `text` as XLA's own Shardy partitions it for `devices` (the way JAX runs
    it)."""
    executable = xla_compile(text, devices, compile_options(devices, shardy=True))
    with make_context():
        info = read_module_info(parse_module(text))
    stand_in = CompiledModule("sdy", devices, info, "", text, text, executable, [])
    return execute(stand_in, inputs)


def reference_outputs(text: str, devices: list, inputs: list[np.ndarray]) -> Reference:
    """main's outputs for `inputs` from the original module `text`, run without pysdy's passes: on the first of
    `devices`, or, for manual code, by XLA's Shardy on all of them."""
    stripped = unpartitioned_text(text)
    if stripped is None:
        outputs = xla_shardy_outputs(text, devices, inputs)
        return Reference(outputs, f"XLA's own Shardy partitioner on {len(devices)} devices (manual code)")
    one_device = devices[:1]
    executable = xla_compile(stripped, one_device, compile_options(one_device, shardy=False, partitioned=False))
    arguments = [jax.device_put(host, one_device[0]) for host in inputs]
    results = executable.execute_sharded(arguments).disassemble_into_single_device_arrays()
    return Reference([np.asarray(shards[0]) for shards in results], "one device, shardings removed")
