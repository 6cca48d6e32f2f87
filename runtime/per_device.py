"""Running a per-device module on N devices: each device gets its piece of every global input, the pieces of each output
are put together.

A per-device module is what `sdy-convert-global-to-local` makes: local
shapes, StableHLO collectives with replica groups and channel ids, and on
`@main` the shardings that say which piece of each global argument and result
a device holds. XLA is given it with every argument and result manual, so it
partitions nothing and runs the same program on each device. Each device gets
its piece of every global input; each global output is put together from the
devices' pieces, and where several devices hold the same piece (replicated
axes) their copies must agree. pysdy-run's pysdy route compiles and runs
through here; per_device_check.py checks a module against its global one.

Partition p is the device at mesh position i where the mesh's device ids list
p at i (i itself without device ids); along a dimension sharded on axes
a1..ak, its piece index is its place in the group of devices those axes
combine (`shard_index`), major axis first.
"""

from __future__ import annotations

import dataclasses
import math

import jax
import numpy as np
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P
from jaxlib.mlir import ir

from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import Mesh, TensorSharding
from pysdy.passes.common.func_attrs import arg_shardings, num_arguments, num_results, result_shardings
from pysdy.passes.common.func_attrs import set_arg_attrs, set_result_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.export.convert_global_to_local import MAIN_SHARDING_RECORDS
from pysdy.passes.export.local_collectives import shard_index
from pysdy.runtime.device_list_groups import with_device_list_groups
from pysdy.passes.export.reshard_ir import MeshTable
from pysdy.passes.pipeline import parse_pipeline, run_pipeline
from pysdy.runtime.comparison import mismatch
from pysdy.runtime.compile import CompiledModule, compile_options, xla_compile
from pysdy.runtime.devices import partition_count, select_devices
from pysdy.runtime.errors import RuntimeInputError
from pysdy.runtime.module_info import TensorSpec, main_function, parse_module, read_module_info, tensor_spec
from pysdy.runtime.pysdy_passes import PARTITIONING_ROUTE, partitioning_steps, propagation_pipelines

_MANUAL = '"{manual}"'


@dataclasses.dataclass(frozen=True)
class Placement:
    """How one global tensor lies on the devices: the sharding of its pieces, on its mesh."""

    sharding: TensorSharding | None
    mesh: Mesh | None
    spec: TensorSpec  # the global tensor's

    def piece(self, partition: int) -> tuple[slice, ...]:
        """The part of the global tensor partition `partition` holds."""
        if self.sharding is None:
            return tuple(slice(0, size) for size in self.spec.shape)
        slices = []
        for size, dim in zip(self.spec.shape, self.sharding.dims):
            if not dim.axes:
                slices.append(slice(0, size))
                continue
            count = math.prod(axis.size(self.mesh) for axis in dim.axes)
            if size % count:
                raise RuntimeInputError(
                    f"a dimension of size {size} is split {count} ways: the per-device harness runs evenly split "
                    "tensors only (pad-for-divisibility's padding is not put back)"
                )
            index = shard_index(partition, dim.axes, self.mesh)
            local = size // count
            slices.append(slice(index * local, (index + 1) * local))
        return tuple(slices)


@dataclasses.dataclass(frozen=True)
class PerDeviceProgram:
    """The text XLA compiles (manual arguments and results), and where each argument and result lies."""

    text: str
    partitions: int
    arguments: tuple[Placement, ...]
    results: tuple[Placement, ...]


def per_device_program(global_text: str, local_text: str, partitions: int) -> PerDeviceProgram:
    """The per-device module `local_text` as XLA runs it on `partitions` devices, with the global shapes of
    `global_text` (the module it was partitioned from)."""
    with make_context():
        global_module = parse_module(global_text, "the global module")  # kept: its ops die with it
        global_types = ir.FunctionType(ir.TypeAttr(main_function(global_module).attributes["function_type"]).value)
        module = parse_module(local_text, "the per-device module")
        main = main_function(module)
        meshes = MeshTable(module.operation)
        arguments = _placements(arg_shardings(main), global_types.inputs, meshes, "argument")
        results = _placements(result_shardings(main), global_types.results, meshes, "result")
        _check_runnable(module.operation)
        with_device_list_groups(module.operation)
        _make_manual(module, main, partitions)
        return PerDeviceProgram(str(module), partitions, arguments, results)


def _placements(shardings, global_types, meshes: MeshTable, what: str) -> tuple[Placement, ...]:
    if len(shardings) != len(global_types):
        raise RuntimeInputError(f"the per-device @main has {len(shardings)} {what}s, the global one {len(global_types)}")
    placements = []
    for index, (sharding, type_) in enumerate(zip(shardings, global_types)):
        if sharding is not None and sharding.unreduced:
            raise RuntimeInputError(
                f"{what} {index} of @main has unreduced axes: the per-device harness does not put partial values "
                "together"
            )
        mesh = meshes.of(sharding) if sharding is not None else None
        placements.append(Placement(sharding, mesh, tensor_spec(type_, f"{what} {index} of @main")))
    return tuple(placements)


def _check_runnable(module: ir.Operation) -> None:
    for op in nested_ops(module):
        if op.name.startswith("sdy.") and op.name != "sdy.mesh":
            raise RuntimeInputError(f"the per-device module still has '{op.name}', which XLA cannot run")


def _make_manual(module: ir.Module, main: ir.Operation, partitions: int) -> None:
    """Every argument and result of main manual, no sdy sharding or mesh left, the partition count set."""
    for op in nested_ops(module.operation):
        if op.name == "sdy.mesh":
            op.erase()
        elif op.name == "func.func":
            set_arg_attrs(op, {i: None for i in range(num_arguments(op))}, "sdy.sharding")
            set_result_attrs(op, {i: None for i in range(num_results(op))}, "sdy.sharding")
        else:
            for name in [name for name in op.attributes if name.startswith("sdy.")]:
                del op.attributes[name]
    manual = ir.Attribute.parse(_MANUAL)
    set_arg_attrs(main, {i: manual for i in range(num_arguments(main))}, "mhlo.sharding")
    set_result_attrs(main, {i: manual for i in range(num_results(main))}, "mhlo.sharding")
    attributes = module.operation.attributes
    for name in MAIN_SHARDING_RECORDS:  # XLA reads none of them
        if name in attributes:
            del attributes[name]
    attributes["mhlo.num_partitions"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), partitions)


def compile_partitioned(text: str, devices: int | None, backend: str | None, source_name: str) -> CompiledModule:
    """`text` partitioned by pysdy's own passes into a per-device program, which XLA compiles for the devices
    without partitioning anything (pysdy-run's pysdy route)."""
    with make_context():
        module = parse_module(text, source_name)
        info = read_module_info(module)
        count = partition_count(info, devices)
        chosen = select_devices(count, backend)
        steps = propagation_pipelines(module, PARTITIONING_ROUTE) + [partitioning_steps(count)]
        try:
            for step in steps:
                run_pipeline(module, parse_pipeline(step))
        except ir.MLIRError as error:
            raise RuntimeInputError(f"pysdy's passes failed: {error}") from None
        local_text = module.operation.get_asm(enable_debug_info=True)
    program = per_device_program(text, local_text, count)
    executable = xla_compile(program.text, chosen, compile_options(chosen, shardy=False))
    return CompiledModule(
        PARTITIONING_ROUTE, chosen, info, ",".join(steps), local_text, program.text, executable, [], program
    )


def execute_per_device(compiled: CompiledModule, inputs: list[np.ndarray]) -> tuple[list[np.ndarray], list[str]]:
    """The pysdy route's executable run on each device's piece of `inputs`: the outputs put together, and where
    copies of a piece disagree."""
    return _execute(compiled.executable, compiled.per_device, inputs, compiled.devices)


def run_per_device(program: PerDeviceProgram, inputs: list[np.ndarray], devices: list) -> tuple[list, list[str]]:
    """The global outputs of `program` run on `devices` for global `inputs`, and where copies of a piece disagree."""
    options = compile_options(devices, shardy=False, partitioned=True)
    return _execute(xla_compile(program.text, devices, options), program, inputs, devices)


def _execute(executable, program: PerDeviceProgram, inputs: list[np.ndarray], devices: list) -> tuple[list, list[str]]:
    arguments = [_per_device_array(host, placement, devices) for host, placement in zip(inputs, program.arguments)]
    results = executable.execute_sharded(arguments).disassemble_into_single_device_arrays()
    outputs, problems = [], []
    for index, (shards, placement) in enumerate(zip(results, program.results)):
        output, disagreement = _assembled(shards, placement)
        outputs.append(output)
        if disagreement:
            problems.append(f"result {index}: {disagreement}")
    return outputs, problems


def _per_device_array(host: np.ndarray, placement: Placement, devices: list) -> jax.Array:
    """One array whose buffer on each device is that device's piece of `host`. XLA only reads the buffers: the
    array is labelled replicated (each buffer has the piece's shape), which no computation here relies on."""
    pieces = [np.ascontiguousarray(host[placement.piece(partition)]) for partition in range(len(devices))]
    buffers = [jax.device_put(piece, device) for piece, device in zip(pieces, devices)]
    sharding = NamedSharding(jax.sharding.Mesh(np.array(devices), ("devices",)), P())
    return jax.make_array_from_single_device_arrays(pieces[0].shape, sharding, buffers)


def _assembled(shards: list, placement: Placement) -> tuple[np.ndarray, str | None]:
    """The global result from every device's piece, and how copies of a piece differ, if they do."""
    spec = placement.spec
    output = np.zeros(spec.shape, spec.dtype)
    written: dict[tuple, int] = {}
    disagreement = None
    for partition, shard in enumerate(shards):
        piece = placement.piece(partition)
        local = np.asarray(shard)
        key = tuple((s.start, s.stop) for s in piece)
        if key in written:
            difference = mismatch(local, output[piece])
            if difference is not None and disagreement is None:
                disagreement = f"device {partition}'s copy of a piece differs from device {written[key]}'s: {difference}"
            continue
        if local.shape != output[piece].shape:
            raise RuntimeInputError(
                f"device {partition} returned {local.shape} where its piece of the result is {output[piece].shape}"
            )
        output[piece] = local
        written[key] = partition
    return output, disagreement
