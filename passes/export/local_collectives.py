"""sdy collectives as the StableHLO collectives of a per-device program, as `sdy-convert-global-to-local` writes them.

Each takes the local (per-device) value and gives the local result. Groups of
devices are global device ids (`use_global_device_ids`): a dense
`[groups, group size]` array (`replica_groups`), or with `enable-rgv3` the
mesh and the axes themselves (ReplicaGroupV3) where no axis is a sub-axis.
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
- `sdy.all_to_all` with one parameter: one `stablehlo.all_to_all` splitting
  the target dimension and concatenating along the source dimension.
- `sdy.collective_permute`: one `stablehlo.collective_permute` sending each
  device's part to the device that holds the same part in the out sharding.
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
from pysdy.passes.gspmd.replica_groups import replica_groups

_DEVICE_TO_DEVICE = 1
_REDUCTION_BODY_OPS = {"sum": "stablehlo.add", "max": "stablehlo.maximum", "min": "stablehlo.minimum"}


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
        if self.rgv3 and all(axis.sub_axis is None for axis in axes):
            refs = ir.ArrayAttr.get([stablehlo.AxisRefAttr.get(axis.name) for axis in axes])
            return stablehlo.ReplicaGroupMeshAxesAttr.get(mesh_or_ref, refs), size
        return ir.DenseElementsAttr.get(replica_groups(axes, mesh)), size

    def all_reduce(
        self, value: ir.Value, axes: Sequence[AxisRef], reduction: str, mesh: Mesh, mesh_or_ref: ir.Attribute
    ) -> ir.Value:
        groups, _ = self._groups(axes, mesh, mesh_or_ref)
        op = ir.Operation.create(
            "stablehlo.all_reduce",
            results=[value.type],
            operands=[value],
            attributes={
                "replica_groups": groups,
                "channel_handle": self._next_channel(),
                "use_global_device_ids": ir.UnitAttr.get(),
            },
            regions=1,
        )
        scalar = ir.RankedTensorType.get([], value.type.element_type)
        block = op.regions[0].blocks.append(scalar, scalar, arg_locs=[ir.Location.current] * 2)
        with ir.InsertionPoint(block):
            reduced = _create(_REDUCTION_BODY_OPS[reduction], scalar, list(block.arguments))
            ir.Operation.create("stablehlo.return", operands=[reduced])
        return op.results[0]

    def all_gather(
        self, value: ir.Value, axes_per_dim: Sequence[Sequence[AxisRef]], per_dim: bool, mesh: Mesh,
        mesh_or_ref: ir.Attribute,
    ) -> ir.Value:  # fmt: skip
        gathered = [dim for dim, axes in enumerate(axes_per_dim) if axes]
        if per_dim or len(gathered) == 1:
            for dim in reversed(gathered):
                groups, size = self._groups(axes_per_dim[dim], mesh, mesh_or_ref)
                shape = list(value.type.shape)
                shape[dim] *= size
                value = self._all_gather(value, shape, dim, groups)
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
        value = _create(
            "stablehlo.transpose",
            _tensor([([*factors, *local])[p] for p in permutation], element),
            [value],
            permutation=ir.DenseI64ArrayAttr.get(permutation),
        )
        final = [extent * (factors[gathered.index(dim)] if dim in gathered else 1) for dim, extent in enumerate(local)]
        return reshape(value, final)

    def _all_gather(self, value: ir.Value, shape: list[int], dim: int, groups: ir.Attribute) -> ir.Value:
        return _create(
            "stablehlo.all_gather",
            _tensor(shape, value.type.element_type),
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
        return _create(
            "stablehlo.all_to_all",
            _tensor(shape, value.type.element_type),
            [value],
            split_dimension=_i64(target),
            concat_dimension=_i64(source),
            split_count=_i64(size),
            replica_groups=groups,
            channel_handle=self._next_channel(),
        )

    def collective_permute(self, value: ir.Value, pairs: np.ndarray) -> ir.Value:
        return _create(
            "stablehlo.collective_permute",
            value.type,
            [value],
            source_target_pairs=ir.DenseElementsAttr.get(pairs),
            channel_handle=self._next_channel(),
        )


def shard_index(device: int, axes: Sequence[AxisRef], mesh: Mesh) -> int:
    """The place of `device` in the group of devices `axes` combine, major axis first."""
    if not axes:
        return 0
    groups = replica_groups(axes, mesh)
    return int(np.argwhere(groups == device)[0][1])


def permutation_pairs(in_sharding: TensorSharding, out_sharding: TensorSharding, mesh: Mesh) -> np.ndarray:
    """(source, target) for every device: the target holds in `out_sharding` the part the source holds in
    `in_sharding`. Both orders list the sharding's axes first, then the other's; where several devices hold a
    part, the last one receives it. Sub-axes are the caller's to refuse."""
    used = {axis.name for sharding in (in_sharding, out_sharding) for dim in sharding.dims for axis in dim.axes}
    ordered = [AxisRef(axis.name) for axis in mesh.axes if axis.name in used]

    def order(sharding: TensorSharding) -> list[AxisRef]:
        axes = [AxisRef(axis.name) for dim in sharding.dims for axis in dim.axes]
        return list(dict.fromkeys(axes + ordered))

    devices = mesh.total_size
    out_order, in_order = order(out_sharding), order(in_sharding)
    holder = {shard_index(device, out_order, mesh): device for device in range(devices)}
    pairs = [[device, holder[shard_index(device, in_order, mesh)]] for device in range(devices)]
    return np.array(pairs, dtype=np.int64)


def dynamic_slice(
    value: ir.Value, axes_per_dim: Sequence[Sequence[AxisRef]], local: ir.RankedTensorType, mesh: Mesh
) -> ir.Value:
    """The device's part of `value`: per sliced dimension, its offset looked up by partition id in a table of every
    device's offset (a zero offset for the others). The offsets are `i32` indexed by the `ui32` partition id, or on
    lines before 0.12 `i64` indexed by the partition id converted to `i64`."""
    narrow = versions.installed().convert_global_to_local_slice_offsets_i32
    index = ir.IntegerType.get_signless(32 if narrow else 64)
    starts = []
    for dim, axes in enumerate(axes_per_dim):
        if not axes:
            starts.append(_create("stablehlo.constant", _tensor([], index), [], value=_elements(index, [], [0])))
            continue
        partition = _create("stablehlo.partition_id", _tensor([], ir.IntegerType.get_unsigned(32)), [])
        if not narrow:
            partition = _create("stablehlo.convert", _tensor([], index), [partition])
        devices = mesh.total_size
        offsets = [shard_index(device, axes, mesh) * local.shape[dim] for device in range(devices)]
        table = _create("stablehlo.constant", _tensor([devices], index), [], value=_elements(index, [devices], offsets))
        one = _create(
            "stablehlo.dynamic_slice", _tensor([1], index), [table, partition], slice_sizes=ir.DenseI64ArrayAttr.get([1])
        )
        starts.append(reshape(one, []))
    return _create(
        "stablehlo.dynamic_slice", local, [value, *starts], slice_sizes=ir.DenseI64ArrayAttr.get(list(local.shape))
    )


def reshape(value: ir.Value, shape: list[int]) -> ir.Value:
    return _create("stablehlo.reshape", _tensor(shape, value.type.element_type), [value])


def _elements(index: ir.IntegerType, shape: list[int], values: list[int]) -> ir.Attribute:
    dtype = np.int32 if index.width == 32 else np.int64
    return ir.DenseElementsAttr.get(np.array(values, dtype=dtype).reshape(shape))


def _i64(value: int) -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)


def _tensor(shape: Sequence[int], element: ir.Type) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(shape), element)


def _create(name: str, result: ir.Type, operands: Sequence[ir.Value], **attributes: ir.Attribute) -> ir.Value:
    return ir.Operation.create(name, results=[result], operands=list(operands), attributes=attributes).results[0]
