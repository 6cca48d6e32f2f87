"""Bytes of tensors as MLIR types spell them: element sizes, global and per-device (local) sizes."""

from __future__ import annotations

import math
import re

from jaxlib.mlir import ir

from pysdy.dialects.sdy import Mesh, TensorSharding

_BITS = re.compile(r"(\d+)")


def element_bytes(element: ir.Type) -> int:
    """Bytes of one element: `f32` 4, `bf16` 2, `i1` 1 (a byte, as XLA stores it), `complex<f32>` 8, `index` 8."""
    text = str(element)
    if text.startswith("complex<"):
        return 2 * element_bytes(ir.ComplexType(element).element_type)
    match = _BITS.search(text)
    bits = int(match.group(1)) if match else 64
    return max(1, -(-bits // 8))


def tensor_bytes(type_: ir.Type) -> int:
    """Bytes of a statically shaped tensor; 0 for anything else."""
    if not isinstance(type_, ir.RankedTensorType) or not type_.has_static_shape:
        return 0
    return math.prod(type_.shape) * element_bytes(type_.element_type)


def local_bytes(sharding: TensorSharding, mesh: Mesh, shape: list[int], element_size: int) -> int:
    """Bytes of one device's tile (padded up where a dimension does not divide)."""
    size = element_size
    for extent, dim in zip(shape, sharding.dims):
        size *= -(-extent // math.prod(axis.size(mesh) for axis in dim.axes))
    return size
