"""Checking a per-device module by running it: on N devices against its global module, shardings removed, on one
device (with manual code: as XLA's Shardy partitions it), on the same inputs; outputs must match within the dtype's tolerance (exactly for integers), and devices
holding the same piece of a result must agree."""

from __future__ import annotations

import dataclasses

import numpy as np

from pysdy.runtime.comparison import mismatch
from pysdy.runtime.devices import select_devices
from pysdy.runtime.per_device import per_device_program, run_per_device
from pysdy.runtime.reference import reference_outputs


@dataclasses.dataclass(frozen=True)
class PerDeviceRun:
    """The per-device program's outputs put together, the unpartitioned ones, and what differs (empty: nothing)."""

    outputs: list[np.ndarray]
    reference: list[np.ndarray]
    problems: list[str]



def check_per_device(global_text: str, local_text: str, inputs: list[np.ndarray], partitions: int) -> PerDeviceRun:
    """Runs the per-device module on `partitions` devices and the global one on one device (with manual code: by XLA's
    Shardy on the same devices), and compares."""
    program = per_device_program(global_text, local_text, partitions)
    devices = select_devices(partitions)
    outputs, problems = run_per_device(program, inputs, devices)
    reference = reference_outputs(global_text, devices, inputs).outputs
    for index, (actual, expected) in enumerate(zip(outputs, reference)):
        difference = mismatch(actual, expected)
        if difference is not None:
            problems.append(f"result {index} differs from the unpartitioned run: {difference}")
    return PerDeviceRun(outputs, reference, problems)
