"""`sdy-update-non-divisible-input-output-shardings`: shrink function input/output shardings to their largest evenly dividing prefix."""

from __future__ import annotations

import dataclasses
import math

from jaxlib.mlir import ir

from pysdy.dialects.sdy import AxisRef, DimSharding, Mesh, SubAxisInfo, TensorSharding, TensorShardingPerValue
from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.registry import MODULE, Pass, register_pass


def meshes_of(module: ir.Operation) -> dict[str, Mesh]:
    """The module's `sdy.mesh` symbols by name."""
    return {
        ir.StringAttr(op.attributes["sym_name"]).value: Mesh.from_attr(op.attributes["mesh"])
        for op in module.regions[0].blocks[0].operations
        if op.operation.name == "sdy.mesh"
    }


def _evenly_sharded_dim(dim: DimSharding, dim_size: int, mesh: Mesh) -> DimSharding:
    sharded_size = math.prod(axis.size(mesh) for axis in dim.axes)
    if dim_size % sharded_size == 0:
        return dim
    remaining = dim_size
    axes: list[AxisRef] = []
    for axis in dim.axes:
        axis_size = axis.size(mesh)
        divisor = math.gcd(axis_size, remaining)
        if divisor == 1:
            break
        if divisor == axis_size:
            axes.append(axis)
            remaining //= divisor
            continue
        pre_size = axis.sub_axis.pre_size if axis.sub_axis is not None else 1
        axes.append(AxisRef(axis.name, SubAxisInfo(pre_size, divisor)))
        break
    return DimSharding(tuple(axes), dim.is_closed)


def evenly_sharded(sharding: TensorSharding, shape: list[int], meshes: dict[str, Mesh]) -> TensorSharding:
    """The largest prefix of each dimension's axes that divides that dimension evenly."""
    mesh = sharding.mesh if isinstance(sharding.mesh, Mesh) else meshes[sharding.mesh]
    dims = tuple(_evenly_sharded_dim(dim, size, mesh) for dim, size in zip(sharding.dims, shape))
    return TensorSharding(sharding.mesh, dims, sharding.replicated, sharding.unreduced)


def _static_shape(type_: ir.Type) -> list[int] | None:
    if isinstance(type_, ir.ShapedType) and type_.has_static_shape:
        return list(type_.shape)
    return None


def _evenly_sharded_attrs(
    shardings: list[TensorSharding | None], types: list[ir.Type], meshes: dict[str, Mesh]
) -> dict[int, ir.Attribute]:
    """The evenly sharded attribute of each sharded, statically shaped value, by index."""
    updated = {}
    for index, (sharding, type_) in enumerate(zip(shardings, types)):
        shape = _static_shape(type_)
        if sharding is not None and shape is not None:
            updated[index] = evenly_sharded(sharding, shape, meshes).to_attr()
    return updated


@register_pass
@dataclasses.dataclass(frozen=True)
class UpdateNonDivisibleInputOutputShardingsPass(Pass):
    argument = "sdy-update-non-divisible-input-output-shardings"
    summary = (
        "Makes FuncOp inputs/outputs evenly sharded, removing any need for padding due to "
        "non-divisible shardings."
    )
    anchor = MODULE

    def run(self, op: ir.Operation) -> None:
        meshes = meshes_of(op)
        for func in op.regions[0].blocks[0].operations:
            if func.operation.name != "func.func":
                continue
            func = func.operation
            arg_types = [argument.type for argument in func.regions[0].blocks[0].arguments]
            func_attrs.set_arg_attrs(func, _evenly_sharded_attrs(func_attrs.arg_shardings(func), arg_types, meshes))
            result_types = func_attrs.result_types(func)
            func_attrs.set_result_attrs(func, _evenly_sharded_attrs(func_attrs.result_shardings(func), result_types, meshes))
        for call in nested_ops(op, name="func.call"):
            if "sdy.sharding" not in call.attributes:
                continue
            shardings = TensorShardingPerValue.from_attr(call.attributes["sdy.sharding"]).shardings
            updated = []
            for sharding, result in zip(shardings, call.results):
                shape = _static_shape(result.type)
                updated.append(sharding if shape is None else evenly_sharded(sharding, shape, meshes))
            call.attributes["sdy.sharding"] = TensorShardingPerValue(tuple(updated)).to_attr()
