"""XLA tile assignments: which device holds each tile, as an explicit device list or as an iota."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Sequence

import numpy as np

# Device lists are held explicitly; beyond this many devices (far beyond any real mesh) pysdy refuses
# with a ValueError rather than exhausting memory.
MAX_DEVICES = 1 << 20


@dataclass(frozen=True)
class Iota:
    """The device order `<=[reshape_dims]T(transpose_perm)`.

    Devices 0..N-1 laid out as an array of shape `reshape_dims`, transposed by
    `transpose_perm`, read in row-major order. Values are always canonical
    (built by `canonical` or `find`): no size-1 reshape dims, and no two
    transposed dims that are adjacent in both orders (they merge into one), so
    two iotas describe the same devices exactly when they are equal.
    """

    reshape_dims: tuple[int, ...]
    transpose_perm: tuple[int, ...]

    @classmethod
    def canonical(cls, reshape_dims: Sequence[int], transpose_perm: Sequence[int]) -> Iota:
        """The canonical iota of the same device order; `transpose_perm` must permute the dims."""
        dims = [int(d) for d in reshape_dims]
        perm = [int(p) for p in transpose_perm]
        if sorted(perm) != list(range(len(dims))):
            raise ValueError(f"T({_join(perm)}) is not a permutation of {len(dims)} dims")
        if any(d < 1 for d in dims):
            raise ValueError(f"iota dims [{_join(dims)}] must be positive")
        # Drop size-1 dims, renumbering the others in reshape order.
        kept = [p for p in range(len(dims)) if dims[p] != 1]
        renumber = {p: i for i, p in enumerate(kept)}
        merged: list[list[int]] = []  # runs in read order: [first position, last position, size]
        for p in perm:
            if dims[p] == 1:
                continue
            position = renumber[p]
            if merged and merged[-1][1] + 1 == position:
                merged[-1][1] = position
                merged[-1][2] *= dims[p]
            else:
                merged.append([position, position, dims[p]])
        if not merged:
            return cls((1,), (0,))
        reshape_order = sorted(range(len(merged)), key=lambda i: merged[i][0])
        new_dims = tuple(merged[i][2] for i in reshape_order)
        new_perm = tuple(reshape_order.index(i) for i in range(len(merged)))
        return cls(new_dims, new_perm)

    @classmethod
    def find(cls, devices: Sequence[int]) -> Iota | None:
        """The iota whose device order is `devices`, or None when no iota has it.

        Reads the transposed dims from the minor end: the device after a block of
        the minor dims is the stride of the next dim, and that dim lasts as long as
        the devices keep that stride. The canonical form merges every dim it can,
        so this greedy reading finds it whenever it exists; a final comparison
        rejects device lists that no iota produces.
        """
        flat = np.asarray(devices, dtype=np.int64).ravel()
        count = flat.size
        if count == 0 or flat[0] != 0:
            return None
        sizes: list[int] = []  # transposed dims, minor to major
        strides: list[int] = []
        block = 1
        while block < count:
            stride = int(flat[block])
            size = 1
            while size * block < count and flat[size * block] == size * stride:
                size += 1
            if count % (block * size):
                return None
            sizes.append(size)
            strides.append(stride)
            block *= size
        by_stride = sorted(range(len(sizes)), key=lambda i: strides[i])
        expected_stride = 1
        for i in by_stride:
            if strides[i] != expected_stride:
                return None
            expected_stride *= sizes[i]
        # Reshape dims go major to minor (largest stride first), and so does the read order.
        reshape_order = by_stride[::-1]
        reshape_dims = [sizes[i] for i in reshape_order]
        read_order = list(range(len(sizes)))[::-1]
        perm = [reshape_order.index(i) for i in read_order]
        iota = cls.canonical(reshape_dims or [1], perm or [0])
        if not np.array_equal(iota.devices(), flat):
            return None
        return iota

    @property
    def num_devices(self) -> int:
        return math.prod(self.reshape_dims)

    def devices(self) -> np.ndarray:
        """The device order, flat; a ValueError past MAX_DEVICES."""
        if self.num_devices > MAX_DEVICES:
            raise ValueError(f"{self.num_devices} devices are more than pysdy handles ({MAX_DEVICES})")
        devices = np.arange(self.num_devices).reshape(self.reshape_dims)
        return devices.transpose(self.transpose_perm).ravel()

    def read_dims(self) -> list[int]:
        """The reshape dims in transposed order: the dims the flat device order is read by."""
        return [self.reshape_dims[p] for p in self.transpose_perm]

    def to_text(self) -> str:
        text = f"<=[{_join(self.reshape_dims)}]"
        if self.transpose_perm != tuple(range(len(self.transpose_perm))):
            text += f"T({_join(self.transpose_perm)})"
        return text


@dataclass(frozen=True)
class TileAssignment:
    """The device of every tile: an array of shape `dims`, stored row-major in `devices`.

    `iota` is set when the assignment is written in iota form; it is only the
    representation, so equality and hashing ignore it (an explicit list equals
    the iota with the same devices, as in XLA).
    """

    dims: tuple[int, ...]
    devices: tuple[int, ...]
    iota: Iota | None = field(default=None, compare=False)

    def __post_init__(self):
        count = math.prod(self.dims)
        if count != len(self.devices):
            raise ValueError(
                f"tile shape [{_join(self.dims)}] needs {count} devices, got {len(self.devices)}"
            )

    @classmethod
    def from_iota(cls, dims: Sequence[int], iota: Iota) -> TileAssignment:
        return cls(tuple(dims), tuple(int(d) for d in iota.devices()), iota)

    @classmethod
    def from_devices(cls, dims: Sequence[int], devices: Sequence[int]) -> TileAssignment:
        return cls(tuple(dims), tuple(int(d) for d in devices))

    @property
    def num_devices(self) -> int:
        return len(self.devices)

    @property
    def is_iota(self) -> bool:
        return self.iota is not None

    def array(self) -> np.ndarray:
        """The devices as an array of shape `dims`: `array()[tile_index]` is that tile's device."""
        return np.asarray(self.devices, dtype=np.int64).reshape(self.dims)

    def to_iota(self) -> TileAssignment:
        """The same assignment in iota form, or itself when no iota has its device order."""
        if self.iota is not None:
            return self
        iota = Iota.find(self.devices)
        return self if iota is None else replace(self, iota=iota)

    def to_explicit(self) -> TileAssignment:
        """The same assignment written as an explicit device list."""
        return replace(self, iota=None)

    def reshape(self, dims: Sequence[int]) -> TileAssignment:
        """Same device order, new tile shape (an iota stays an iota)."""
        return TileAssignment(tuple(dims), self.devices, self.iota)

    def transpose(self, perm: Sequence[int]) -> TileAssignment:
        """Tile dims permuted.

        As in XLA, an iota stays an iota when only size-1 dims move or when the
        tile dims and the iota's dims cut the devices at compatible places (each
        dim a product of consecutive pieces of the other's); otherwise the
        result is an explicit list, even if some iota happens to match it.
        """
        array = self.array().transpose(perm)
        moved = [p for p in perm if self.dims[p] != 1]
        keeps_iota = self.iota is not None and (
            moved == sorted(moved) or _have_common_refinement(self.dims, self.iota.read_dims())
        )
        return self._with_array(array, keeps_iota)

    def sort_last_dim(self) -> TileAssignment:
        """Devices sorted along the last tile dim (XLA's order inside a replication group).

        As in XLA, an iota stays an iota when the last tile dim is made of whole
        minor iota dims plus a minor part of the next one; otherwise the result
        is an explicit list, even if nothing moved.
        """
        array = np.sort(self.array(), axis=-1)
        keeps_iota = self.iota is not None and _minor_dims_fit(self.dims[-1], self.iota.read_dims())
        return self._with_array(array, keeps_iota)

    def _with_array(self, array: np.ndarray, keeps_iota: bool) -> TileAssignment:
        devices = tuple(int(d) for d in array.ravel())
        iota = Iota.find(devices) if keeps_iota else None
        return TileAssignment(tuple(array.shape), devices, iota)

    def to_text(self) -> str:
        """`[dims]` then the iota or the device list, as after `devices=` in XLA's text."""
        order = self.iota.to_text() if self.iota is not None else _join(self.devices)
        return f"[{_join(self.dims)}]{order}"


def _have_common_refinement(dims: Sequence[int], other: Sequence[int]) -> bool:
    """Whether two shapes of one size cut it compatibly: each dim of either is a product of
    consecutive pieces of the other (a dim may split into a major and a minor part)."""
    a = [d for d in dims if d != 1]
    b = [d for d in other if d != 1]
    while a and b:
        if a[0] == b[0]:
            a.pop(0)
            b.pop(0)
        elif b[0] % a[0] == 0:
            b[0] //= a.pop(0)
        elif a[0] % b[0] == 0:
            a[0] //= b.pop(0)
        else:
            return False
    return True


def _minor_dims_fit(group_size: int, read_dims: Sequence[int]) -> bool:
    """Whether the `group_size` minor-most positions are whole minor dims, then a minor part of one."""
    for size in reversed(read_dims):
        if size % group_size == 0:
            return True
        if group_size % size:
            return False
        group_size //= size
    return group_size == 1


def _join(values: Sequence[int]) -> str:
    return ",".join(str(v) for v in values)
