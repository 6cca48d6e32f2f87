"""A Shardy sharding as XLA's HloSharding: what XLA's Shardy export writes as `mhlo.sharding`."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from pysdy.dialects.hlo_sharding import HloSharding, Kind, SubgroupType
from pysdy.dialects.sdy import AxisRef, Mesh, SubAxisInfo, TensorSharding
from pysdy.dialects.tile_assignment import Iota, TileAssignment


def to_hlo_sharding(
    sharding: TensorSharding, mesh: Mesh, manual_axes: Sequence[str] = ()
) -> HloSharding:
    """The HloSharding of `sharding` on `mesh`, where the full axes `manual_axes` are manual.

    A mesh without axes is replicated, or the one device of a maximal mesh. A
    mesh whose axes are all manual is manual. Otherwise each mesh axis, cut
    into the pieces the sharding's sub-axes make of it, is one dim of the
    device order (an iota, or the mesh's `device_ids`), and the tile shape is
    each tensor dim's sharded size followed by one subgroup dim each for the
    manual axes, the unreduced axes and the rest (replicated). XLA's tile
    canonicalization then merges and drops dims (see `HloSharding.subgroup`).
    Manual and unreduced axes together follow JAX (XLA's export refuses them).
    Raises ValueError for unknown axes and for axes used twice or overlapping.
    """
    if not mesh.axes:
        if mesh.device_ids:
            return HloSharding.maximal(mesh.device_ids[0])
        return HloSharding.replicated()
    manual = _manual_axis_refs(manual_axes, mesh)
    if len(manual) == len(mesh.axes):
        return HloSharding.manual()

    pieces = _mesh_pieces(sharding, mesh)
    piece_index = {piece: index for index, piece in enumerate(pieces)}
    groups = [list(dim.axes) for dim in sharding.dims]
    types = []
    if manual:
        groups.append(manual)
        types.append(SubgroupType.MANUAL)
    if sharding.unreduced:
        groups.append(list(sharding.unreduced))
        types.append(SubgroupType.UNREDUCED)
    placed = [ref for group in groups for ref in group]
    named = placed + list(sharding.replicated)
    if len(set(named)) != len(named):
        raise ValueError("an axis is used more than once in the sharding")
    for ref in named:
        if ref not in piece_index:
            raise ValueError(f"axis {ref} overlaps another axis of the sharding")
    placed_set = set(placed)
    replicated = [index for index, piece in enumerate(pieces) if piece not in placed_set]
    replicated_size = math.prod(pieces[index].size(mesh) for index in replicated)
    tile_dims = [math.prod(ref.size(mesh) for ref in group) for group in groups]
    if replicated_size > 1:
        tile_dims.append(replicated_size)
        types.append(SubgroupType.REPLICATED)

    # Device order: the pieces in tile order (placed axes, then replicated ones).
    perm = [piece_index[ref] for ref in placed] + replicated
    hlo_sharding = HloSharding.subgroup(_tiles(tile_dims, pieces, perm, mesh), types)
    # XLA hands the sharding to HLO as a proto, and reading one back turns a
    # tiling over a single device into a replicated sharding.
    if hlo_sharding.kind is Kind.TILED and hlo_sharding.tile_assignment.num_devices == 1:
        return HloSharding.replicated()
    return hlo_sharding


def _tiles(
    tile_dims: list[int], pieces: list[AxisRef], perm: list[int], mesh: Mesh
) -> TileAssignment:
    """The mesh's devices laid out by `pieces`, transposed by `perm`, cut into `tile_dims`.

    An iota for the default device order; an explicit list when the mesh has
    `device_ids`, even one an iota could describe, as in XLA.
    """
    piece_sizes = [piece.size(mesh) for piece in pieces]
    if not mesh.device_ids:
        return TileAssignment.from_iota(tile_dims, Iota.canonical(piece_sizes, perm))
    devices = np.asarray(mesh.device_ids).reshape(piece_sizes).transpose(perm).ravel()
    return TileAssignment.from_devices(tile_dims, devices)


def _manual_axis_refs(manual_axes: Sequence[str], mesh: Mesh) -> list[AxisRef]:
    for name in manual_axes:
        if mesh.axis_size(name) is None:
            raise ValueError(f'manual axis "{name}" is not an axis of the mesh')
    if len(set(manual_axes)) != len(manual_axes):
        raise ValueError(f"manual axes {list(manual_axes)} repeat an axis")
    return [AxisRef(name) for name in manual_axes]


def _mesh_pieces(sharding: TensorSharding, mesh: Mesh) -> list[AxisRef]:
    """The mesh axes, major to minor, each cut where a sub-axis of the sharding starts or ends.

    In a valid sharding every axis it names is then exactly one piece.
    """
    cuts = {axis.name: {1, axis.size} for axis in mesh.axes}
    refs = [ref for dim in sharding.dims for ref in dim.axes]
    for ref in refs + list(sharding.replicated) + list(sharding.unreduced):
        if ref.name not in cuts:
            raise ValueError(f"axis {ref} is not an axis of the mesh")
        if ref.sub_axis is not None:
            if mesh.axis_size(ref.name) % ref.sub_axis.next_pre_size:
                raise ValueError(f"sub-axis {ref} does not fit its mesh axis")
            cuts[ref.name] |= {ref.sub_axis.pre_size, ref.sub_axis.next_pre_size}
    pieces = []
    for axis in mesh.axes:
        points = sorted(cuts[axis.name])
        if len(points) <= 2:
            pieces.append(AxisRef(axis.name))
            continue
        for pre_size, next_pre_size in zip(points, points[1:]):
            pieces.append(AxisRef(axis.name, SubAxisInfo(pre_size, next_pre_size // pre_size)))
    return pieces
