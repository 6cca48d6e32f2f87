"""One sdy collective over unreduced axes as XLA's export builds it: a fully manual `sdy.manual_computation` of
StableHLO ops.

The computation takes the collective's operand with its sharding and gives
its result the collective's out sharding; every axis of the mesh is manual.
Inside, on each device's local part:

- `sdy.all_reduce`: one `stablehlo.all_reduce` over the reduction axes;
- `sdy.reduce_scatter`: one `stablehlo.reduce_scatter` per dimension with
  axes, in dimension order, each on the previous one's result;
- `sdy.sharded_to_unreduced`: the local part placed, by `dynamic_update_slice`,
  into zeros of the result's local shape, at the offset the device's
  coordinates along the moved axes give (as XLA computes it: each coordinate
  after the first is added to the offset so far times the size of the axis
  before it, which is right only where the axes of a dimension have one
  size, see `offsets_read_right`);
- `sdy.replicated_to_unreduced`: the local part on the devices whose
  coordinates along the axes are all 0, zeros elsewhere.

The collectives reduce with the op's reduction (`add`, `maximum`, `minimum`),
over replica groups of global device ids (`use_global_device_ids`), each with
its own channel (device to device). A device's coordinates are read from its
partition id as if the mesh had no device ids. Where the shardings do not
divide a dimension, the operand is first padded at the end (with the
reduction's identity; zeros for the moves to unreduced) to a multiple of the
shard counts, the padded operand carrying the operand's sharding, and the
result is sliced back, carrying the out sharding.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy, stablehlo

from pysdy.dialects.sdy import AxisRef, ManualAxes, Mesh, TensorSharding, TensorShardingPerValue
from pysdy.passes.common.reduction_bodies import build_reduction_body
from pysdy.passes.gspmd.reduction_identities import identity
from pysdy.passes.gspmd.replica_groups import replica_groups

SHARDING = "sdy.sharding"
_DEVICE_TO_DEVICE = 1


@dataclasses.dataclass(frozen=True)
class Collective:
    """An sdy collective to export, read: its operand's and result's shardings, its mesh, its reduction (`sum` for
    the moves to unreduced) and its axes (one list for an all-reduce or a replicated-to-unreduced move, one per
    dimension for a reduce-scatter or a sharded-to-unreduced move)."""

    op: ir.Operation
    in_sharding: TensorSharding
    out_sharding: TensorSharding
    mesh: Mesh
    reduction: str
    axes: tuple[AxisRef, ...] | tuple[tuple[AxisRef, ...], ...]

    @property
    def shape(self) -> list[int]:
        return list(self.op.operands[0].type.shape)

    @property
    def element_type(self) -> ir.Type:
        return self.op.operands[0].type.element_type

    def padded_shape(self) -> list[int]:
        """Each dimension rounded up to a multiple of its shard counts in both shardings."""
        counts = zip(_shard_counts(self.in_sharding, self.mesh), _shard_counts(self.out_sharding, self.mesh))
        return [-(-size // math.lcm(a, b)) * math.lcm(a, b) for size, (a, b) in zip(self.shape, counts)]


def _shard_counts(sharding: TensorSharding, mesh: Mesh) -> list[int]:
    """How many parts each dimension is split into."""
    return [math.prod(ref.size(mesh) for ref in dim.axes) for dim in sharding.dims]


def _local_shape(shape: Sequence[int], sharding: TensorSharding, mesh: Mesh) -> list[int]:
    return [size // count for size, count in zip(shape, _shard_counts(sharding, mesh))]


def _tensor(shape: Sequence[int], element: ir.Type) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(shape), element)


def _create(name: str, result: ir.Type, operands: Sequence[ir.Value], **attributes: ir.Attribute) -> ir.Value:
    return ir.Operation.create(name, results=[result], operands=list(operands), attributes=attributes).results[0]


def _constant(value: ir.Attribute) -> ir.Value:
    return _create("stablehlo.constant", value.type, [], value=value)


def _i32(value: int) -> ir.Value:
    i32 = ir.IntegerType.get_signless(32)
    return _constant(ir.DenseElementsAttr.get_splat(_tensor([], i32), ir.IntegerAttr.get(i32, value)))


def _binary(name: str, lhs: ir.Value, rhs: ir.Value) -> ir.Value:
    return _create(f"stablehlo.{name}", lhs.type, [lhs, rhs])


def _zeros(shape: Sequence[int], element: ir.Type) -> ir.Value:
    """A `stablehlo.broadcast` of a zero scalar."""
    zero = _constant(identity(element, "sum"))
    sizes = ir.DenseI64ArrayAttr.get(list(shape))
    return _create("stablehlo.broadcast", _tensor(shape, element), [zero], broadcast_sizes=sizes)


def export_collective(collective: Collective, channel: int) -> int:
    """Replaces the collective by its fully manual computation; returns the next free channel id."""
    op = collective.op
    with ir.InsertionPoint(op), op.location:
        source = op.operands[0]
        padded = collective.padded_shape()
        if padded != collective.shape:
            source = _pad(source, padded, collective)
        builder = _Builder(collective, channel)
        manual = builder.manual_computation(source)
        result = manual.results[0]
        if padded != collective.shape:
            result = _slice(result, collective)
    op.results[0].replace_all_uses_with(result)
    op.erase()
    return builder.channel


def _pad(value: ir.Value, padded: list[int], collective: Collective) -> ir.Value:
    fill = _constant(identity(collective.element_type, collective.reduction))
    rank = len(padded)
    pad = ir.Operation.create(
        "stablehlo.pad",
        results=[_tensor(padded, collective.element_type)],
        operands=[value, fill],
        attributes={
            "edge_padding_low": ir.DenseI64ArrayAttr.get([0] * rank),
            "edge_padding_high": ir.DenseI64ArrayAttr.get([p - s for p, s in zip(padded, collective.shape)]),
            "interior_padding": ir.DenseI64ArrayAttr.get([0] * rank),
            SHARDING: TensorShardingPerValue((collective.in_sharding,)).to_attr(),
        },
    )
    return pad.results[0]


def _slice(value: ir.Value, collective: Collective) -> ir.Value:
    shape = collective.shape
    return ir.Operation.create(
        "stablehlo.slice",
        results=[collective.op.results[0].type],
        operands=[value],
        attributes={
            "start_indices": ir.DenseI64ArrayAttr.get([0] * len(shape)),
            "limit_indices": ir.DenseI64ArrayAttr.get(shape),
            "strides": ir.DenseI64ArrayAttr.get([1] * len(shape)),
            SHARDING: TensorShardingPerValue((collective.out_sharding,)).to_attr(),
        },
    ).results[0]


class _Builder:
    """Builds the manual computation of one collective; `channel` is the next free channel id."""

    def __init__(self, collective: Collective, channel: int):
        self.collective = collective
        self.mesh = collective.mesh
        self.channel = channel

    def manual_computation(self, source: ir.Value) -> ir.Operation:
        collective = self.collective
        manual_axes = ManualAxes(tuple(axis.name for axis in self.mesh.axes))
        manual = sdy.ManualComputationOp(
            [source.type],
            [source],
            TensorShardingPerValue((collective.in_sharding,)).to_attr(),
            TensorShardingPerValue((collective.out_sharding,)).to_attr(),
            manual_axes.to_attr(),
        ).operation
        local = _tensor(_local_shape(source.type.shape, collective.in_sharding, self.mesh), collective.element_type)
        block = manual.regions[0].blocks.append(local, arg_locs=[source.location])
        with ir.InsertionPoint(block):
            body = {
                "sdy.all_reduce": self._all_reduce,
                "sdy.reduce_scatter": self._reduce_scatter,
                "sdy.sharded_to_unreduced": self._sharded_to_unreduced,
                "sdy.replicated_to_unreduced": self._replicated_to_unreduced,
            }[collective.op.name]
            sdy.ReturnOp([body(block.arguments[0])])
        return manual

    # ---------------------------------------------------------------- reductions

    def _collective(
        self, name: str, value: ir.Value, result: ir.Type, axes: Sequence[AxisRef], **attributes: ir.Attribute
    ) -> ir.Value:
        """A StableHLO collective over `axes` reducing with the op's reduction, on the next channel."""
        groups = replica_groups(axes, self.mesh)
        op = ir.Operation.create(
            name,
            results=[result],
            operands=[value],
            attributes={
                **attributes,
                "replica_groups": ir.DenseElementsAttr.get(groups),
                "channel_handle": stablehlo.ChannelHandle.get(self.channel, _DEVICE_TO_DEVICE),
                "use_global_device_ids": ir.UnitAttr.get(),
            },
            regions=1,
        )
        self.channel += 1
        build_reduction_body(op.regions[0], self.collective.element_type, self.collective.reduction)
        return op.results[0]

    def _all_reduce(self, local: ir.Value) -> ir.Value:
        return self._collective("stablehlo.all_reduce", local, local.type, self.collective.axes)

    def _reduce_scatter(self, local: ir.Value) -> ir.Value:
        shape = list(local.type.shape)
        i64 = ir.IntegerType.get_signless(64)
        for dim, axes in enumerate(self.collective.axes):
            if not axes:
                continue
            shape[dim] //= math.prod(ref.size(self.mesh) for ref in axes)
            result = _tensor(shape, self.collective.element_type)
            local = self._collective(
                "stablehlo.reduce_scatter", local, result, axes, scatter_dimension=ir.IntegerAttr.get(i64, dim)
            )
        return local

    # ---------------------------------------------------------------- moves to unreduced

    def _axis_coordinates(self) -> tuple[dict[str, ir.Value], dict[str, ir.Value]]:
        """Each mesh axis's coordinate of this device and its size, from the partition id (minor axes first)."""
        partition = _create("stablehlo.partition_id", _tensor([], ir.IntegerType.get_unsigned(32)), [])
        rest = _create("stablehlo.convert", _tensor([], ir.IntegerType.get_signless(32)), [partition])
        coordinates, sizes = {}, {}
        for axis in reversed(self.mesh.axes):
            sizes[axis.name] = _i32(axis.size)
            coordinates[axis.name] = _binary("remainder", rest, sizes[axis.name])
            rest = _binary("divide", rest, sizes[axis.name])
        return coordinates, sizes

    def _sharded_to_unreduced(self, local: ir.Value) -> ir.Value:
        collective = self.collective
        out_shape = _local_shape(collective.padded_shape(), collective.out_sharding, self.mesh)
        zeros = _zeros(out_shape, collective.element_type)
        coordinates, sizes = self._axis_coordinates()
        zero = _i32(0)
        offsets = []
        for dim, axes in enumerate(collective.axes):
            if not axes:
                offsets.append(zero)
                continue
            offset = coordinates[axes[0].name]
            for previous, axis in zip(axes, axes[1:]):
                offset = _binary("add", _binary("multiply", offset, sizes[previous.name]), coordinates[axis.name])
            offsets.append(_binary("multiply", offset, _i32(local.type.shape[dim])))
        return _create("stablehlo.dynamic_update_slice", zeros.type, [zeros, local, *offsets])

    def _replicated_to_unreduced(self, local: ir.Value) -> ir.Value:
        coordinates, _ = self._axis_coordinates()
        zero = _i32(0)
        i1 = _tensor([], ir.IntegerType.get_signless(1))
        direction = ir.Attribute.parse("#stablehlo<comparison_direction EQ>")
        keep = None
        for axis in self.collective.axes:
            first = _create("stablehlo.compare", i1, [coordinates[axis.name], zero], comparison_direction=direction)
            keep = first if keep is None else _binary("and", keep, first)
        zeros = _zeros(local.type.shape, self.collective.element_type)
        return _create("stablehlo.select", local.type, [keep, local, zeros])


def offsets_read_right(collective: Collective) -> bool:
    """Whether XLA's offsets of a sharded-to-unreduced move are the parts' places: the axes moved from each
    dimension all have one size (XLA scales by the previous axis's size where the next one's belongs)."""
    return all(len({ref.size(collective.mesh) for ref in axes}) <= 1 for axes in collective.axes)


def keeps_one_device_per_group(axes: Sequence[AxisRef], mesh: Mesh) -> bool:
    """Whether reading coordinates from the partition id, as if the mesh had no device ids, picks exactly one
    device of every group along (full) `axes` to keep a replicated value: always so without device ids."""
    if not mesh.device_ids:
        return True
    sizes = [axis.size for axis in mesh.axes]
    dims = [next(i for i, axis in enumerate(mesh.axes) if axis.name == ref.name) for ref in axes]
    devices = np.array(mesh.device_ids).reshape(sizes)
    iota_coordinates = np.unravel_index(devices, sizes)
    kept = np.logical_and.reduce([iota_coordinates[dim] == 0 for dim in dims])
    return bool((kept.sum(axis=tuple(dims)) == 1).all())

