"""Running a compiled module on host arrays: each argument split per its compiled sharding, each result gathered
(unreduced ones through unreduced_values.py)."""

from __future__ import annotations

import jax
import numpy as np
from jax._src.lib import xla_client as xc
from jax._src.sharding_impls import GSPMDSharding

from pysdy.runtime.compile import CompiledModule
from pysdy.runtime.errors import RuntimeInputError
from pysdy.runtime.per_device import execute_per_device
from pysdy.runtime.unreduced_values import UnreducedLayout, combined_result, unreduced_argument


def _sharding(compiled: CompiledModule, op_sharding) -> GSPMDSharding:
    return GSPMDSharding(tuple(compiled.devices), op_sharding)


def _replicated_if_none(shardings, count: int) -> list:
    """An unpartitioned executable reports no shardings: each value is then whole on its one device."""
    if shardings is None:
        return [xc.HloSharding.replicate().to_proto()] * count
    return list(shardings)


def device_arguments(compiled: CompiledModule, inputs: list[np.ndarray]) -> list[jax.Array]:
    """Each host input as a jax.Array whose shards sit on the devices the compiled parameter sharding names (as
    partials on the unreduced ones)."""
    arrays = []
    shardings = _replicated_if_none(compiled.executable.get_parameter_shardings(), len(inputs))
    for host, op_sharding, reduction in zip(inputs, shardings, compiled.info.argument_reductions):
        layout = UnreducedLayout.of(op_sharding, host.shape, len(compiled.devices))
        if layout is not None:
            arrays.append(unreduced_argument(host, layout, reduction or "sum", compiled.devices))
            continue
        sharding = _sharding(compiled, op_sharding)
        arrays.append(jax.make_array_from_callback(host.shape, sharding, lambda index, host=host: host[index]))
    return arrays


def execute_on_devices(compiled: CompiledModule, arguments: list[jax.Array]) -> list[jax.Array | np.ndarray]:
    """The executable run on sharded arguments; results as jax.Arrays with their compiled shardings, but those left
    unreduced, which are combined to host arrays."""
    try:
        results = compiled.executable.execute_sharded(arguments).disassemble_into_single_device_arrays()
        for shards in results:
            jax.block_until_ready(shards)
    except xc.XlaRuntimeError as error:
        raise RuntimeInputError(f"XLA failed running the module: {error}") from None
    output_shardings = _replicated_if_none(compiled.executable.get_output_shardings(), len(results))
    outputs = []
    for spec, op_sharding, shards, reduction in zip(
        compiled.info.results, output_shardings, results, compiled.info.result_reductions
    ):
        layout = UnreducedLayout.of(op_sharding, spec.shape, len(compiled.devices))
        if layout is not None:
            outputs.append(combined_result(shards, layout, reduction or "sum", spec.dtype))
        else:
            sharding = _sharding(compiled, op_sharding)
            outputs.append(jax.make_array_from_single_device_arrays(spec.shape, sharding, shards))
    return outputs


def execute(compiled: CompiledModule, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """main's results, gathered to host arrays (a result left unreduced as the reduction of its partials), for host
    `inputs` (already checked against main's signature)."""
    if compiled.per_device is not None:
        outputs, disagreements = execute_per_device(compiled, inputs)
        if disagreements:
            raise RuntimeInputError(
                "devices holding the same part of a result hold different values: " + "; ".join(disagreements)
            )
        return outputs
    outputs = execute_on_devices(compiled, device_arguments(compiled, inputs))
    return [np.asarray(output) for output in outputs]
