"""What the runtime needs to know about a module before compiling it: main's signature, its meshes, manual code."""

from __future__ import annotations

import dataclasses

import ml_dtypes
import numpy as np
from jaxlib.mlir import ir

from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import Mesh, TensorSharding
from pysdy.passes.common.custom_calls import custom_call_target
from pysdy.passes.common.func_attrs import arg_shardings, function_type, result_shardings
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.runtime.errors import RuntimeInputError

_ELEMENT_DTYPES = {
    "bf16": ml_dtypes.bfloat16,
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
    "i1": np.bool_,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "ui8": np.uint8,
    "ui16": np.uint16,
    "ui32": np.uint32,
    "ui64": np.uint64,
    "complex<f32>": np.complex64,
    "complex<f64>": np.complex128,
}

# Custom calls into Python functions that live in the process that lowered the module (JAX's io_callback,
# pure_callback, debug.print, buffer callbacks): XLA looks them up there at run time.
HOST_CALLBACK_TARGETS = frozenset(
    f"xla_{kind}python_{device}_callback"
    for kind in ("", "ffi_", "ffi_partitioned_", "buffer_")
    for device in ("cpu", "gpu")
)


@dataclasses.dataclass(frozen=True)
class TensorSpec:
    """A tensor's shape and numpy dtype, as main's signature declares it."""

    shape: tuple[int, ...]
    dtype: np.dtype

    def describe(self) -> str:
        return f"{self.dtype.name}[{','.join(str(d) for d in self.shape)}]"


@dataclasses.dataclass(frozen=True)
class ModuleInfo:
    """main's argument and result tensors, how those with unreduced axes are reduced (None for the others), the
    module's meshes by name, and the partition count it declares."""

    arguments: tuple[TensorSpec, ...]
    results: tuple[TensorSpec, ...]
    meshes: dict[str, Mesh]
    declared_partitions: int | None
    has_manual_code: bool
    argument_reductions: tuple[str | None, ...]
    result_reductions: tuple[str | None, ...]

    def mesh_device_count(self) -> int:
        """The number of devices the largest mesh spans (1 for a module without meshes)."""
        return max((mesh_devices(mesh) for mesh in self.meshes.values()), default=1)


def mesh_devices(mesh: Mesh) -> int:
    """How many devices a mesh needs: its size, or for a maximal mesh one more than the device it names."""
    if mesh.is_maximal:
        return mesh.device_ids[0] + 1
    return mesh.total_size


def tensor_spec(type_: ir.Type, what: str) -> TensorSpec:
    if not isinstance(type_, ir.RankedTensorType):
        raise RuntimeInputError(f"{what} has type {type_}; the runtime handles ranked tensors only")
    element = str(type_.element_type)
    if element not in _ELEMENT_DTYPES:
        raise RuntimeInputError(f"{what} has element type {element}, which the runtime cannot make host arrays of")
    return TensorSpec(tuple(type_.shape), np.dtype(_ELEMENT_DTYPES[element]))


def main_function(module: ir.Module) -> ir.Operation:
    for op in module.body.operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == "main":
            return op.operation
    raise RuntimeInputError("the module has no function @main to run")


def read_module_info(module: ir.Module) -> ModuleInfo:
    main = main_function(module)
    meshes = {}
    has_manual_code = False
    for op in nested_ops(module.operation):
        if op.name == "sdy.mesh":
            meshes[ir.StringAttr(op.attributes["sym_name"]).value] = Mesh.from_attr(op.attributes["mesh"])
        elif op.name == "sdy.manual_computation":
            has_manual_code = True
        elif custom_call_target(op) in HOST_CALLBACK_TARGETS:
            raise RuntimeInputError(
                f"the module calls a Python function of the process that lowered it (@{custom_call_target(op)}): "
                "only that process can run it, through pysdy.jax.jit"
            )
    signature = function_type(main)
    arguments = tuple(tensor_spec(t, f"argument {i} of @main") for i, t in enumerate(signature.inputs))
    results = tuple(tensor_spec(t, f"result {i} of @main") for i, t in enumerate(signature.results))
    attributes = module.operation.attributes
    declared = ir.IntegerAttr(attributes["mhlo.num_partitions"]).value if "mhlo.num_partitions" in attributes else None
    return ModuleInfo(
        arguments,
        results,
        meshes,
        declared,
        has_manual_code,
        _reductions(arg_shardings(main)),
        _reductions(result_shardings(main)),
    )


def _reductions(shardings: list[TensorSharding | None]) -> tuple[str | None, ...]:
    return tuple(s.reduction if s is not None and s.unreduced else None for s in shardings)


def parse_module(text: str, source_name: str = "<module>") -> ir.Module:
    """The module parsed (and verified) in the current context, or a RuntimeInputError with MLIR's message."""
    try:
        return ir.Module.parse(text)
    except ir.MLIRError as error:
        raise RuntimeInputError(f"{source_name}: not a valid module: {error}") from None


def module_info_of_text(text: str, source_name: str = "<module>") -> ModuleInfo:
    with make_context():
        return read_module_info(parse_module(text, source_name))
