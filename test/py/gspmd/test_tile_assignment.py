"""Tile-assignment math: iota device orders, their canonical form, and list <-> iota conversion, checked against XLA."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import xla_oracle

from pysdy.dialects.hlo_sharding import HloSharding
from pysdy.dialects.tile_assignment import Iota, TileAssignment


def factorizations(n: int) -> list[tuple[int, ...]]:
    """Every ordered factorization of n into factors above 1 (`(1,)` for 1)."""
    if n == 1:
        return [(1,)]
    result = [(n,)]
    for first in range(2, n):
        if n % first == 0:
            result += [(first,) + rest for rest in factorizations(n // first)]
    return result


def iota_devices(reshape_dims, perm) -> list[int]:
    return np.arange(math.prod(reshape_dims)).reshape(reshape_dims).transpose(perm).ravel().tolist()


def iota_text(reshape_dims, perm) -> str:
    text = f"<=[{','.join(map(str, reshape_dims))}]"
    return text + (f"T({','.join(map(str, perm))})" if len(reshape_dims) > 1 else "")


# Every iota of up to 12 devices (some with size-1 dims), and the tile shapes they are read in.
IOTAS = [
    (dims, perm)
    for n in (1, 2, 4, 6, 8, 12)
    for dims in factorizations(n) + [(1, n), (n, 1, 1), (2, 1, n // 2)] * (n % 2 == 0)
    for perm in itertools.permutations(range(len(dims)))
]


@pytest.mark.parametrize("reshape_dims, perm", IOTAS)
def test_iota_is_canonical_as_xla_prints_it(reshape_dims, perm):
    count = math.prod(reshape_dims)
    for tile_dims in {(count,), tuple(reshape_dims[p] for p in perm)}:
        shape = ",".join(map(str, tile_dims))
        iota_form = f"{{devices=[{shape}]{iota_text(reshape_dims, perm)}}}"
        sharding = xla_oracle.assert_round_trip(iota_form)
        tiles = sharding.tile_assignment
        assert list(tiles.devices) == iota_devices(reshape_dims, perm)
        assert tiles.iota == Iota.canonical(reshape_dims, perm)
        if count == 1:
            continue  # XLA has no one-device explicit list
        # The same devices as an explicit list: XLA keeps the list form, and equals the iota.
        list_form = f"{{devices=[{shape}]{','.join(map(str, tiles.devices))}}}"
        listed = xla_oracle.assert_round_trip(list_form)
        xla_oracle.check(listed == sharding, xla_oracle.parse(list_form) == xla_oracle.parse(iota_form), "list == iota")
        # Conversion picks XLA's printing of the other form.
        xla_oracle.check(HloSharding.tiled(listed.tile_assignment.to_iota()).to_text(), str(xla_oracle.parse(iota_form)), "to_iota")
        xla_oracle.check(HloSharding.tiled(tiles.to_explicit()).to_text(), str(xla_oracle.parse(list_form)), "to_explicit")


@pytest.mark.parametrize("count", range(1, 9))
def test_find_recognizes_exactly_the_iotas(count):
    """Over every permutation of `count` devices, `Iota.find` succeeds exactly on the iota device orders."""
    iotas = {
        tuple(iota_devices(dims, perm))
        for dims in factorizations(count)
        for perm in itertools.permutations(range(len(dims)))
    }
    found = set()
    for devices in itertools.permutations(range(count)):
        iota = Iota.find(devices)
        if iota is not None:
            assert tuple(iota.devices()) == devices
            assert iota == Iota.canonical(iota.reshape_dims, iota.transpose_perm)
            found.add(devices)
    assert found == iotas


def test_find_rejects_lists_that_are_not_device_orders():
    assert Iota.find([]) is None
    assert Iota.find([1, 0]) is None
    assert Iota.find([0, 2, 4, 6]) is None  # not 0..N-1
    assert Iota.find([0, 1, 1, 3]) is None
    assert Iota.find([0, 0]) is None
    assert Iota.find([0, 1, 2, 3, 4, 5]) == Iota((6,), (0,))


def test_iota_validation():
    with pytest.raises(ValueError, match=r"T\(0,0\) is not a permutation of 2 dims"):
        Iota.canonical([2, 2], [0, 0])
    with pytest.raises(ValueError, match=r"iota dims \[2,0\] must be positive"):
        Iota.canonical([2, 0], [0, 1])
    with pytest.raises(ValueError, match=r"tile shape \[2,2\] needs 4 devices, got 3"):
        TileAssignment.from_devices((2, 2), [0, 1, 2])


def test_representation_is_not_part_of_equality():
    listed = TileAssignment.from_devices((4, 2), [0, 4, 1, 5, 2, 6, 3, 7])
    iota = listed.to_iota()
    assert iota.iota == Iota((2, 4), (1, 0)) and not listed.is_iota
    assert listed == iota and hash(listed) == hash(iota)
    assert iota.to_explicit().to_text() == "[4,2]0,4,1,5,2,6,3,7"
    assert iota.to_text() == "[4,2]<=[2,4]T(1,0)"
    assert listed.reshape((8,)) != listed  # same devices, other tile shape
    not_iota = TileAssignment.from_devices((2, 2), [0, 3, 1, 2])
    assert not_iota.to_iota() is not_iota


def test_transpose_keeps_iota_as_xla_does():
    tiles = TileAssignment.from_iota((2, 3, 4), Iota((12, 2), (1, 0)))
    # The tile dims cut the iota's 12 into 3x4: the transposed devices are an iota too.
    assert tiles.transpose((0, 2, 1)).iota == Iota((3, 4, 2), (2, 1, 0))
    assert tiles.transpose((0, 2, 1)).array().tolist() == tiles.array().transpose(0, 2, 1).tolist()
    # Tile dims (3, 2) read an iota whose dims are (2, 3): they cut across each other, and XLA
    # gives up on the iota form (as parsing the sharding that sorts these two subgroups shows).
    odd = TileAssignment.from_iota((1, 3, 2), Iota((3, 2), (1, 0)))
    assert not odd.transpose((0, 2, 1)).is_iota
    assert odd.transpose((1, 0, 2)).is_iota  # moving a size-1 dim is a reshape
    xla_oracle.assert_round_trip("{devices=[1,3,2]<=[3,2]T(1,0) last_tile_dims={replicated, manual}}")


def test_an_iota_of_more_devices_than_pysdy_handles_is_a_value_error_not_a_memory_error():
    from pysdy.dialects.tile_assignment import MAX_DEVICES

    assert len(Iota.canonical([MAX_DEVICES], [0]).devices()) == MAX_DEVICES
    with pytest.raises(ValueError, match=f"{2 * MAX_DEVICES} devices are more than pysdy handles"):
        TileAssignment.from_iota([2, MAX_DEVICES], Iota.canonical([2, MAX_DEVICES], [1, 0]))
