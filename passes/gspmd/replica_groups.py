"""The device groups of a collective over mesh axes, as Shardy builds a StableHLO collective's `replica_groups`.

Each mesh axis is one dimension of the device array, or, where the reduction
names sub-axes of it, several: one per piece between the sub-axes' bounds
(major pieces first). The array (the mesh's device ids, else 0..n-1) is
transposed to put the pieces that are not reduced first, in mesh order, and
the reduced ones last, in the order the reduction lists them; each row of
the result is then one group, devices along the reduced pieces in that order.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from pysdy.dialects.sdy import AxisRef, Mesh
from pysdy.passes.propagation.axis_refs import sub_axis


def mesh_pieces(axes: Sequence[AxisRef], mesh: Mesh) -> list[AxisRef]:
    """The mesh's axes, major to minor, each cut where a sub-axis of it in `axes` begins or ends."""
    bounds = {axis.name: {1, axis.size} for axis in mesh.axes}
    for ref in axes:
        if ref.sub_axis is not None:
            bounds[ref.name].update((ref.sub_axis.pre_size, ref.sub_axis.next_pre_size))
    pieces: list[AxisRef] = []
    for axis in mesh.axes:
        cuts = sorted(bounds[axis.name])
        if len(cuts) <= 2:  # whole (a size-1 axis has one cut)
            pieces.append(AxisRef(axis.name))
            continue
        pieces.extend(sub_axis(axis.name, low, high // low) for low, high in zip(cuts, cuts[1:]))
    return pieces


def replica_groups(axes: Sequence[AxisRef], mesh: Mesh) -> np.ndarray:
    """The groups of devices a collective over `axes` of `mesh` combines: an int64 array [groups, group size]."""
    pieces = mesh_pieces(axes, mesh)
    reduced = [pieces.index(ref) for ref in axes]
    kept = [index for index in range(len(pieces)) if index not in reduced]
    devices = np.array(mesh.device_ids or range(mesh.total_size), dtype=np.int64)
    grid = devices.reshape([piece.size(mesh) for piece in pieces])
    group_size = int(np.prod([pieces[index].size(mesh) for index in reduced], dtype=np.int64))
    return np.ascontiguousarray(grid.transpose(kept + reduced).reshape(-1, group_size))
