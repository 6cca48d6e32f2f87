"""Arguments and results of @main with unreduced axes, at the host boundary: a host value becomes per-device partials
and a result's partials are combined back, by the reduction kind main's sharding gives (sum, max, min).

XLA places such a value on every device like a replicated one, but the devices along the unreduced axes hold parts
whose reduction is the value. JAX cannot build or read arrays of such shardings on every line (its device index
maps refuse them), so these values cross the boundary as per-device buffers: an argument's partial is the value's
tile on the first device of each unreduced group and the reduction's identity on the others for a sum (the tile
itself for max and min, which ignore repeats); a result's tiles are reduced over each unreduced group.
"""

from __future__ import annotations

from typing import Optional

import jax
import numpy as np
from jax._src.lib import xla_client as xc
from jax._src.sharding_impls import GSPMDSharding

from pysdy.runtime.errors import RuntimeInputError

_UNREDUCED = xc.OpSharding.Type.UNREDUCED
_REPLICATED = xc.OpSharding.Type.REPLICATED
_COMBINE = {"sum": np.add, "max": np.maximum, "min": np.minimum}


class UnreducedLayout:
    """Where the devices of an unreduced sharding sit: each device's tile index, whether it holds the first partial
    of its tile (position 0 along the unreduced subgroup dimensions) and whether it is the first copy of its partial
    (position 0 along the replicated ones)."""

    def __init__(self, tiles: np.ndarray, types: list, shape: tuple[int, ...]):
        """`tiles`: the device ids laid out by tile, one dimension per value dimension, then one per subgroup of
        type `types[i]`."""
        dims = list(tiles.shape)
        self.tiles = tiles
        self.shape = shape
        self.data_dims = dims[: len(shape)]
        self.unreduced_dims = [len(shape) + i for i, t in enumerate(types) if t == _UNREDUCED]
        self.replicated_dims = [len(shape) + i for i, t in enumerate(types) if t == _REPLICATED]

    @classmethod
    def of(cls, op_sharding, shape: tuple[int, ...], device_count: int) -> Optional[UnreducedLayout]:
        """The layout of `op_sharding` (an OpSharding proto) over `device_count` devices if it has unreduced axes,
        else None."""
        hlo = xc.HloSharding.from_proto(op_sharding)
        if hlo.is_unreduced():  # every device holds a partial of the whole value
            tiles = np.arange(device_count).reshape([1] * len(shape) + [device_count])
            return cls(tiles, [_UNREDUCED], shape)
        if not hlo.is_tiled() or _UNREDUCED not in list(hlo.subgroup_types()):
            return None
        types = list(hlo.subgroup_types())
        if any(t not in (_UNREDUCED, _REPLICATED) for t in types):
            raise RuntimeInputError(f"@main has a value with sharding {hlo}, which pysdy-run cannot pass to the host")
        tiles = np.array(hlo.tile_assignment_devices()).reshape(list(hlo.tile_assignment_dimensions()))
        return cls(tiles, types, shape)

    def replicated_sharding(self, devices: list) -> GSPMDSharding:
        """The same placement with every subgroup replicated: a sharding JAX builds arrays of."""
        group = int(np.prod(self.tiles.shape[len(self.shape) :]))
        tiles = self.tiles.reshape(self.data_dims + [group])
        hlo = xc.HloSharding.subgroup_with_device_ordering(tiles, [_REPLICATED])
        return GSPMDSharding(tuple(devices), hlo.to_proto())

    def placements(self):
        """(device, tile index, first partial of its tile, first copy of its partial) for every device."""
        for position in np.ndindex(*self.tiles.shape):
            first_partial = all(position[d] == 0 for d in self.unreduced_dims)
            first_copy = all(position[d] == 0 for d in self.replicated_dims)
            yield int(self.tiles[position]), position[: len(self.shape)], first_partial, first_copy

    def tile_slices(self, tile: tuple[int, ...]) -> tuple[slice, ...]:
        """The part of the value a tile holds (XLA pads the last tiles of a dimension that does not divide)."""
        slices = []
        for index, size, count in zip(tile, self.shape, self.data_dims):
            chunk = -(-size // count)
            slices.append(slice(min(index * chunk, size), min((index + 1) * chunk, size)))
        return tuple(slices)


def unreduced_argument(host: np.ndarray, layout: UnreducedLayout, reduction: str, devices: list) -> jax.Array:
    """`host` as the per-device partials whose reduction (`reduction`) is `host`."""
    buffers: dict[int, jax.Array] = {}
    for device, tile, first_partial, _ in layout.placements():
        part = host[layout.tile_slices(tile)]
        if not first_partial and reduction == "sum":
            part = np.zeros_like(part)
        buffers[device] = jax.device_put(part, devices[device])
    return jax.make_array_from_single_device_arrays(
        host.shape, layout.replicated_sharding(devices), [buffers[d] for d in range(len(devices))]
    )


def combined_result(shards: list, layout: UnreducedLayout, reduction: str, dtype: np.dtype) -> np.ndarray:
    """The value whose partials the devices hold (`shards[d]` on logical device d), reduced with `reduction` (each
    partial once, however many copies of it the devices hold)."""
    value = np.zeros(layout.shape, dtype)
    filled = np.zeros(layout.shape, bool)
    for device, tile, _, first_copy in layout.placements():
        if not first_copy:
            continue
        where = layout.tile_slices(tile)
        part = np.asarray(shards[device])[tuple(slice(0, s.stop - s.start) for s in where)]
        value[where] = np.where(filled[where], _COMBINE[reduction](value[where], part), part)
        filled[where] = True
    return value
