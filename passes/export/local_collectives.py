"""sdy collectives as the StableHLO collectives of a per-device program, as `sdy-convert-global-to-local` writes them.

Each takes the local (per-device) value and gives the local result. Groups of
devices are global device ids (`use_global_device_ids`): a dense
`[groups, group size]` array (`replica_groups`), or with `enable-rgv3` the
mesh and the axes themselves (ReplicaGroupV3, sub-axes too).
Every collective gets the next channel id, device to device. A device's
offset along a sliced dimension is read from a table of every device's
offset, indexed by its partition id.

- `sdy.all_reduce`: one `stablehlo.all_reduce` reducing with the op's
  reduction (`add`, `maximum`, `minimum`).
- `sdy.all_gather`: one `stablehlo.all_gather` per gathered dimension, last
  dimension first; or, gathering several dimensions at once, one all-gather
  along a new leading dimension of every gathering axis, then reshapes and a
  transpose that put each dimension's parts next to it.
- `sdy.all_slice`: a `stablehlo.dynamic_slice` at the device's offsets.
- `sdy.reduce_scatter`: over one dimension, one `stablehlo.reduce_scatter`;
  over several, an all-reduce over all their axes, then the dynamic slice.
- `sdy.all_to_all` with one parameter: one `stablehlo.all_to_all` splitting
  the target dimension and concatenating along the source dimension.
- `sdy.collective_permute`: one `stablehlo.collective_permute` sending each
  device's part to the device that holds the same part in the out sharding.
- `sdy.replicated_to_unreduced` (sum): the value kept on the first device of
  each group along the axes, zeros on the others.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from pysdy import versions
from pysdy.dialects.sdy import AxisRef, Mesh, TensorSharding
from pysdy.passes.common.reduction_bodies import build_reduction_body
from pysdy.passes.gspmd.replica_groups import mesh_pieces, replica_groups
from pysdy.passes.propagation import axis_refs

_DEVICE_TO_DEVICE = 1


@dataclasses.dataclass
class CollectiveBuilder:
    """Builds collectives at the current insertion point and location; `channel` is the next free channel id."""

    channel: int
    rgv3: bool

    def _next_channel(self) -> ir.Attribute:
        handle = stablehlo.ChannelHandle.get(self.channel, _DEVICE_TO_DEVICE)
        self.channel += 1
        return handle

    def _groups(self, axes: Sequence[AxisRef], mesh: Mesh, mesh_or_ref: ir.Attribute) -> tuple[ir.Attribute, int]:
        """The replica groups of a collective over `axes`, and how many devices each group has."""
        size = math.prod(axis.size(mesh) for axis in axes)
        if self.rgv3:
            refs = ir.ArrayAttr.get([_stablehlo_axis_ref(axis) for axis in axes])
            return stablehlo.ReplicaGroupMeshAxesAttr.get(mesh_or_ref, refs), size
        return ir.DenseElementsAttr.get(replica_groups(axes, mesh)), size

    def all_reduce(
        self, value: ir.Value, axes: Sequence[AxisRef], reduction: str, mesh: Mesh, mesh_or_ref: ir.Attribute
    ) -> ir.Value:
        groups, _ = self._groups(axes, mesh, mesh_or_ref)
        attributes = {"replica_groups": groups}
        return self._reducing("stablehlo.all_reduce", value, value.type, reduction, attributes)

    def reduce_scatter(
        self, value: ir.Value, dim: int, axes: Sequence[AxisRef], reduction: str, local: ir.RankedTensorType,
        mesh: Mesh, mesh_or_ref: ir.Attribute,
    ) -> ir.Value:  # fmt: skip
        groups, _ = self._groups(axes, mesh, mesh_or_ref)
        attributes = {"scatter_dimension": _i64(dim), "replica_groups": groups}
        return self._reducing("stablehlo.reduce_scatter", value, local, reduction, attributes)

    def all_reduce_as(
        self, value: ir.Value, axes: Sequence[AxisRef], reduce: ir.Operation, mesh: Mesh, mesh_or_ref: ir.Attribute
    ) -> ir.Value:
        """An all-reduce with a copy of the body of `reduce` (a one-result reduce or scatter)."""
        groups, _ = self._groups(axes, mesh, mesh_or_ref)
        op = self._reducing_op("stablehlo.all_reduce", value, value.type, {"replica_groups": groups})
        copy = reduce.clone()
        copy.regions[0].blocks[0].append_to(op.regions[0])
        copy.erase()
        return op.results[0]

    def all_gather_along(
        self, value: ir.Value, dim: int, axes: Sequence[AxisRef], mesh: Mesh, mesh_or_ref: ir.Attribute
    ) -> ir.Value:
        groups, size = self._groups(axes, mesh, mesh_or_ref)
        shape = list(value.type.shape)
        shape[dim] *= size
        return self._all_gather(value, shape, dim, groups)

    def _reducing_op(self, name: str, value: ir.Value, result: ir.Type, attributes: dict) -> ir.Operation:
        attributes = {**attributes, "channel_handle": self._next_channel(), "use_global_device_ids": ir.UnitAttr.get()}
        return ir.Operation.create(name, results=[result], operands=[value], attributes=attributes, regions=1)

    def _reducing(
        self, name: str, value: ir.Value, result: ir.Type, reduction: str, attributes: dict[str, ir.Attribute]
    ) -> ir.Value:
        op = self._reducing_op(name, value, result, attributes)
        build_reduction_body(op.regions[0], value.type.element_type, reduction)
        return op.results[0]

    def all_gather(
        self, value: ir.Value, axes_per_dim: Sequence[Sequence[AxisRef]], per_dim: bool, mesh: Mesh,
        mesh_or_ref: ir.Attribute,
    ) -> ir.Value:  # fmt: skip
        gathered = [dim for dim, axes in enumerate(axes_per_dim) if axes]
        if per_dim or len(gathered) == 1:
            for dim in reversed(gathered):
                value = self.all_gather_along(value, dim, axes_per_dim[dim], mesh, mesh_or_ref)
            return value
        local = list(value.type.shape)
        element = value.type.element_type
        factors = [math.prod(axis.size(mesh) for axis in axes_per_dim[dim]) for dim in gathered]
        all_axes = [axis for dim in gathered for axis in axes_per_dim[dim]]
        groups, size = self._groups(all_axes, mesh, mesh_or_ref)
        value = reshape(value, [1, *local])
        value = self._all_gather(value, [size, *local], 0, groups)
        value = reshape(value, [*factors, *local])
        permutation: list[int] = []
        for dim in range(len(local)):
            if dim in gathered:
                permutation.append(gathered.index(dim))
            permutation.append(dim + len(gathered))
        value = create_value(
            "stablehlo.transpose",
            tensor_type([([*factors, *local])[p] for p in permutation], element),
            [value],
            permutation=ir.DenseI64ArrayAttr.get(permutation),
        )
        final = [extent * (factors[gathered.index(dim)] if dim in gathered else 1) for dim, extent in enumerate(local)]
        return reshape(value, final)

    def _all_gather(self, value: ir.Value, shape: list[int], dim: int, groups: ir.Attribute) -> ir.Value:
        return create_value(
            "stablehlo.all_gather",
            tensor_type(shape, value.type.element_type),
            [value],
            all_gather_dim=_i64(dim),
            replica_groups=groups,
            channel_handle=self._next_channel(),
            use_global_device_ids=ir.UnitAttr.get(),
        )

    def all_to_all(
        self, value: ir.Value, axes: Sequence[AxisRef], source: int, target: int, mesh: Mesh, mesh_or_ref: ir.Attribute
    ) -> ir.Value:
        groups, size = self._groups(axes, mesh, mesh_or_ref)
        shape = list(value.type.shape)
        shape[source] *= size
        shape[target] //= size
        return create_value(
            "stablehlo.all_to_all",
            tensor_type(shape, value.type.element_type),
            [value],
            split_dimension=_i64(target),
            concat_dimension=_i64(source),
            split_count=_i64(size),
            replica_groups=groups,
            channel_handle=self._next_channel(),
        )

    def collective_permute(self, value: ir.Value, pairs: np.ndarray) -> ir.Value:
        return create_value(
            "stablehlo.collective_permute",
            value.type,
            [value],
            source_target_pairs=ir.DenseElementsAttr.get(pairs),
            channel_handle=self._next_channel(),
        )


def _stablehlo_axis_ref(axis: AxisRef) -> ir.Attribute:
    if axis.sub_axis is None:
        return stablehlo.AxisRefAttr.get(axis.name)
    info = stablehlo.SubAxisInfoAttr.get(axis.sub_axis.pre_size, axis.sub_axis.size)
    return stablehlo.AxisRefAttr.get(axis.name, info)


def shard_index(device: int, axes: Sequence[AxisRef], mesh: Mesh) -> int:
    """The place of `device` in the group of devices `axes` combine, major axis first."""
    if not axes:
        return 0
    groups = replica_groups(axes, mesh)
    return int(np.argwhere(groups == device)[0][1])


def permutation_pairs(in_sharding: TensorSharding, out_sharding: TensorSharding, mesh: Mesh) -> np.ndarray:
    """(source, target) for every device: the target holds in `out_sharding` the part the source holds in
    `in_sharding`. Both orders list the sharding's axes first, then the rest of the mesh's axes (pieces of them where
    either sharding names sub-axes) in mesh order."""
    shardings = (in_sharding, out_sharding)
    pieces = mesh_pieces([axis for sharding in shardings for dim in sharding.dims for axis in dim.axes], mesh)

    def order(sharding: TensorSharding) -> list[AxisRef]:
        axes = [axis for dim in sharding.dims for axis in dim.axes]
        return axes + [piece for piece in pieces if not any(axis_refs.contains(axis, piece) for axis in axes)]

    devices = mesh.total_size
    out_order, in_order = order(out_sharding), order(in_sharding)
    holder = {shard_index(device, out_order, mesh): device for device in range(devices)}
    pairs = [[device, holder[shard_index(device, in_order, mesh)]] for device in range(devices)]
    return np.array(pairs, dtype=np.int64)


def dimension_offset(axes: Sequence[AxisRef], shard_size: int, mesh: Mesh, replicas: bool = False) -> ir.Value:
    """The device's offset along a dimension split on `axes` into parts of `shard_size`: a scalar, `i32` from jax 0.12,
    before `i64`."""
    offsets = [shard_index(device, axes, mesh) * shard_size for device in range(mesh.total_size)]
    dtype = np.int32 if _index_type().width == 32 else np.int64
    return reshape(device_entry(np.array(offsets, dtype=dtype), replicas), [])


def replicated_to_unreduced(value: ir.Value, axes: Sequence[AxisRef], mesh: Mesh, replicas: bool = False) -> ir.Value:
    """`value` kept on the first device of each group along `axes`, zeros on the others: partial sums of it."""
    keep = reshape(first_of_groups(axes, mesh, replicas), [])
    return create_value("stablehlo.select", value.type, [keep, value, splat(value.type, 0)])


def first_of_groups(axes: Sequence[AxisRef], mesh: Mesh, replicas: bool = False) -> ir.Value:
    """Whether the device is the first of its group along `axes`: its `device_entry` (`tensor<1xi1>`)."""
    table = np.array([shard_index(device, axes, mesh) == 0 for device in range(mesh.total_size)], dtype=np.bool_)
    return device_entry(table, replicas)


def device_entry(table: np.ndarray, replicas: bool = False) -> ir.Value:
    """The device's entry of `table` (one per device) as a one-element tensor: looked up by partition id (with
    `replicas`, replica id), the `ui32` id itself from jax 0.12, before the id converted to `i64`."""
    device_id = "stablehlo.replica_id" if replicas else "stablehlo.partition_id"
    device = create_value(device_id, tensor_type([], ir.IntegerType.get_unsigned(32)), [])
    index = _index_type()
    if index.width != 32:
        device = create_value("stablehlo.convert", tensor_type([], index), [device])
    values = ir.DenseElementsAttr.get(table)
    constant = create_value("stablehlo.constant", values.type, [], value=values)
    element = ir.RankedTensorType(values.type).element_type
    sizes = ir.DenseI64ArrayAttr.get([1])
    return create_value("stablehlo.dynamic_slice", tensor_type([1], element), [constant, device], slice_sizes=sizes)


def dynamic_slice(
    value: ir.Value, axes_per_dim: Sequence[Sequence[AxisRef]], local: ir.RankedTensorType, mesh: Mesh
) -> ir.Value:
    """The device's part of `value`: per sliced dimension, its `dimension_offset` (a zero offset for the others)."""
    index = _index_type()
    starts = [
        dimension_offset(axes, local.shape[dim], mesh)
        if axes
        else splat(tensor_type([], index), 0)
        for dim, axes in enumerate(axes_per_dim)
    ]
    return create_value(
        "stablehlo.dynamic_slice", local, [value, *starts], slice_sizes=ir.DenseI64ArrayAttr.get(list(local.shape))
    )


def _index_type() -> ir.IntegerType:
    narrow = versions.installed().convert_global_to_local_slice_offsets_i32
    return ir.IntegerType.get_signless(32 if narrow else 64)


def reshape(value: ir.Value, shape: list[int]) -> ir.Value:
    return create_value("stablehlo.reshape", tensor_type(shape, value.type.element_type), [value])


def _i64(value: int) -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)


def tensor_type(shape: Sequence[int], element: ir.Type) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(shape), element)


def create_value(name: str, result: ir.Type, operands: Sequence[ir.Value], **attributes: ir.Attribute) -> ir.Value:
    return ir.Operation.create(name, results=[result], operands=list(operands), attributes=attributes).results[0]


def splat(type_: ir.RankedTensorType, value: float | int) -> ir.Value:
    """A `stablehlo.constant` of `type_` holding `value` everywhere."""
    element = type_.element_type
    if isinstance(element, ir.IntegerType):
        scalar = ir.IntegerAttr.get(element, int(value))
    else:
        scalar = ir.FloatAttr.get(element, float(value))
    return create_value("stablehlo.constant", type_, [], value=ir.DenseElementsAttr.get_splat(type_, scalar))
