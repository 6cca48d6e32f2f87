"""Checking a per-device module by running it: on N devices against its global module, shardings removed, on one
device, on the same inputs; outputs must match within the dtype's tolerance (exactly for integers), and devices
holding the same piece of a result must agree."""

from __future__ import annotations

import dataclasses

import jax
import numpy as np

from pysdy.runtime.comparison import mismatch
from pysdy.runtime.compile import compile_options, xla_compile
from pysdy.runtime.devices import select_devices
from pysdy.runtime.errors import RuntimeInputError
from pysdy.runtime.per_device import per_device_program, run_per_device
from pysdy.runtime.reference import unpartitioned_text


@dataclasses.dataclass(frozen=True)
class PerDeviceRun:
    """The per-device program's outputs put together, the unpartitioned ones, and what differs (empty: nothing)."""

    outputs: list[np.ndarray]
    reference: list[np.ndarray]
    problems: list[str]



def unpartitioned_outputs(global_text: str, inputs: list[np.ndarray], device) -> list[np.ndarray]:
    """The global module, shardings removed, run on one device."""
    stripped = unpartitioned_text(global_text)
    if stripped is None:
        raise RuntimeInputError("the global module has manual code: it has no meaning on one device to compare with")
    executable = xla_compile(stripped, [device], compile_options([device], shardy=False, partitioned=False))
    arguments = [jax.device_put(host, device) for host in inputs]
    results = executable.execute_sharded(arguments).disassemble_into_single_device_arrays()
    return [np.asarray(shards[0]) for shards in results]


def check_per_device(global_text: str, local_text: str, inputs: list[np.ndarray], partitions: int) -> PerDeviceRun:
    """Runs the per-device module on `partitions` devices and the global one on one device, and compares."""
    program = per_device_program(global_text, local_text, partitions)
    devices = select_devices(partitions)
    outputs, problems = run_per_device(program, inputs, devices)
    reference = unpartitioned_outputs(global_text, inputs, devices[0])
    for index, (actual, expected) in enumerate(zip(outputs, reference)):
        difference = mismatch(actual, expected)
        if difference is not None:
            problems.append(f"result {index} differs from the unpartitioned run: {difference}")
    return PerDeviceRun(outputs, reference, problems)
