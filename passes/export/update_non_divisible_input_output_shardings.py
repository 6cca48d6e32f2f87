"""`sdy-update-non-divisible-input-output-shardings`: shrink the input/output shardings of functions, calls and
manual computations to their largest evenly dividing prefix."""

from __future__ import annotations

import dataclasses
import math

from jaxlib.mlir import ir

from pysdy.dialects.sdy import AxisRef, DimSharding, Mesh, SubAxisInfo, TensorSharding, TensorShardingPerValue
from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops_named
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
    return dataclasses.replace(sharding, dims=dims)


def _static_shape(type_: ir.Type) -> list[int] | None:
    if isinstance(type_, ir.ShapedType) and type_.has_static_shape:
        return list(type_.shape)
    return None


class _EvenSharder:
    """Evenly sharded sharding attributes, memoized by (attribute, type): both are uniqued, and
    a large module repeats few distinct pairs."""

    def __init__(self, meshes: dict[str, Mesh]):
        self.meshes = meshes
        self.memo: dict[tuple[ir.Attribute, ir.Type], ir.Attribute] = {}

    def attr(self, sharding: ir.Attribute, type_: ir.Type) -> ir.Attribute:
        key = (sharding, type_)
        even = self.memo.get(key)
        if even is None:
            shape = _static_shape(type_)
            even = sharding
            if shape is not None:
                old = TensorSharding.from_attr(sharding)
                new = evenly_sharded(old, shape, self.meshes)
                if new != old:
                    even = new.to_attr()
            self.memo[key] = even
        return even

    def changed(self, entries: ir.Attribute | None, types: list[ir.Type]) -> dict[int, ir.Attribute]:
        """The new sharding of each value whose sharding (in `arg_attrs` / `res_attrs` `entries`) changes, by index."""
        if entries is None:
            return {}
        updated = {}
        for index, (entry, type_) in enumerate(zip(ir.ArrayAttr(entries), types)):
            entry = ir.DictAttr(entry)
            if func_attrs.SHARDING in entry:
                sharding = entry[func_attrs.SHARDING]
                even = self.attr(sharding, type_)
                if even != sharding:
                    updated[index] = even
        return updated


def _evenly_sharded_per_value(op: ir.Operation, name: str, values, meshes: dict[str, Mesh]) -> None:
    """The op's per-value sharding attribute `name`, each sharding shrunk for its value's static shape."""
    shardings = TensorShardingPerValue.from_attr(op.attributes[name]).shardings
    updated = []
    for sharding, value in zip(shardings, values):
        shape = _static_shape(value.type)
        updated.append(sharding if shape is None else evenly_sharded(sharding, shape, meshes))
    op.attributes[name] = TensorShardingPerValue(tuple(updated)).to_attr()


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
        sharder = _EvenSharder(meshes_of(op))
        for func in op.regions[0].blocks[0].operations:
            func = func.operation
            if func.name != "func.func":
                continue
            attributes = func.attributes
            function_type = func_attrs.function_type(func)
            if func_attrs.ARG_ATTRS in attributes:
                updated = sharder.changed(attributes[func_attrs.ARG_ATTRS], function_type.inputs)
                if updated:
                    func_attrs.set_arg_attrs(func, updated)
            if func_attrs.RESULT_ATTRS in attributes:
                updated = sharder.changed(attributes[func_attrs.RESULT_ATTRS], function_type.results)
                if updated:
                    func_attrs.set_result_attrs(func, updated)
        for nested in nested_ops_named(op, {"func.call", "sdy.manual_computation"}, pre_order=True):
            if nested.name == "func.call":
                if func_attrs.SHARDING in nested.attributes:
                    _evenly_sharded_per_value(nested, func_attrs.SHARDING, nested.results, sharder.meshes)
                continue
            # A manual computation's shardings hold its manual axes, which divide the global shapes: the free
            # axes shrink as they would on the local shapes.
            _evenly_sharded_per_value(nested, "in_shardings", nested.operands, sharder.meshes)
            _evenly_sharded_per_value(nested, "out_shardings", nested.results, sharder.meshes)
