"""Which devices a module runs on: as many as its partitions, in device-id order, checked against its meshes.

A mesh in a module is abstract (axis names and sizes, maybe `device_ids`);
it is bound to concrete devices only here, at run time: partition `p` of the
compiled program runs on the `p`-th device of the backend JAX finds, and a
mesh's `device_ids` (which the export folds into the HloShardings' tile
assignments, and which XLA's Shardy reads itself) name partitions.
"""

from __future__ import annotations

import jax

from pysdy.runtime.errors import RuntimeInputError
from pysdy.runtime.module_info import ModuleInfo, mesh_devices


def partition_count(info: ModuleInfo, requested: int | None) -> int:
    """The number of partitions to compile for: `requested`, else what the module declares, else its mesh size."""
    count = requested if requested is not None else info.declared_partitions or info.mesh_device_count()
    if count < 1:
        raise RuntimeInputError(f"the device count must be at least 1, not {count}")
    for name, mesh in info.meshes.items():
        needed = mesh_devices(mesh)
        if needed > count:
            raise RuntimeInputError(
                f"mesh @{name} spans {needed} devices, more than the {count} the module is compiled for"
            )
        if not mesh.is_maximal and needed not in (1, count):
            raise RuntimeInputError(
                f"mesh @{name} spans {needed} devices but the module is compiled for {count}; "
                f"run it on {needed} devices"
            )
    return count


def select_devices(count: int, backend: str | None = None) -> list:
    """The first `count` devices (by id) of JAX's default backend, or of `backend` if named."""
    available = sorted(jax.devices(backend), key=lambda device: device.id)
    if count > len(available):
        platform = available[0].platform if available else backend or "default"
        hint = " (JAX_NUM_CPU_DEVICES sets how many CPU devices JAX makes)" if platform == "cpu" else ""
        raise RuntimeInputError(
            f"too few devices: the module needs {count}, the {platform} backend has {len(available)}{hint}"
        )
    return available[:count]
