"""Which devices hold which tile of a tensor: Shardy's device assignment of a sharding on a mesh.

The mesh's devices sit at positions in row-major order over its axes (the
device at position p is `device_ids[p]`). A dimension sharded on axes
`[a, b]` (major first) is cut into size(a) * size(b) tiles, and a device
holds the tile numbered, in mixed radix, by its coordinates along a then b; a
sub-axis `x:(p)s` is the coordinate `(coordinate along x // p) % s`. Devices
differing only along axes the sharding leaves out hold the same tile. A
tensor without a mesh is one tile held by no device named; on a mesh too
large to list its devices, every tile is held by no device named.
"""

from __future__ import annotations

import itertools
import math

from pysdy.explanation.model import MeshView, TensorView


def _axis(text: str, sizes: dict[str, int]) -> tuple[str, int, int]:
    """(mesh axis, pre-size, size) of `x` or `x:(p)s`."""
    name, _, sub = text.partition(":")
    if not sub:
        return name, 1, sizes[name]
    pre_size, size = sub[1:].split(")")
    return name, int(pre_size), int(size)


def tile_grid(tensor: TensorView, mesh: MeshView | None) -> tuple[int, ...]:
    """How many tiles each dimension is cut into."""
    if mesh is None or not tensor.dim_axes:
        return tuple(1 for _ in tensor.shape)
    sizes = dict(mesh.axes)
    return tuple(math.prod(_axis(a, sizes)[2] for a in axes) for axes in tensor.dim_axes)


def tile_devices(tensor: TensorView, mesh: MeshView | None) -> dict[tuple[int, ...], tuple[int, ...]]:
    """Tile index per dimension -> the sorted ids of the devices holding that tile."""
    if mesh is None or not tensor.dim_axes:
        return {tuple(0 for _ in tensor.shape): () if mesh is None else tuple(sorted(mesh.device_ids))}
    if not mesh.device_ids:
        return {tile: () for tile in itertools.product(*(range(count) for count in tile_grid(tensor, mesh)))}
    sizes = dict(mesh.axes)
    names = [name for name, _ in mesh.axes]
    dims = [[_axis(a, sizes) for a in axes] for axes in tensor.dim_axes]
    held: dict[tuple[int, ...], list[int]] = {}
    for position, coordinates in enumerate(itertools.product(*(range(size) for _, size in mesh.axes))):
        along = dict(zip(names, coordinates))
        tile = []
        for axes in dims:
            index = 0
            for name, pre_size, size in axes:
                index = index * size + (along[name] // pre_size) % size
            tile.append(index)
        held.setdefault(tuple(tile), []).append(mesh.device_ids[position])
    return {tile: tuple(sorted(devices)) for tile, devices in sorted(held.items())}
