"""XLA's HloShardings of a module as Shardy shardings on one mesh found from their tile assignments."""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Sequence, Union

import numpy as np

from pysdy import versions
from pysdy.dialects.hlo_sharding import HloSharding, Kind, SubgroupType
from pysdy.dialects.sdy import AxisRef, DimSharding, Mesh, MeshAxis, SubAxisInfo, TensorSharding
from pysdy.dialects.tile_assignment import Iota

GLOBAL_MESH_NAME = "mesh"  # XLA's kGlobalMeshName


def maximal_mesh_prefix() -> str:
    """How the installed XLA's import names the mesh of `{maximal device=N}`, before its `_N`."""
    return "single_device" if versions.installed().xla_import_single_device_mesh_names else "maximal_mesh"


def maximal_mesh_name(device: int) -> str:
    """The mesh the installed XLA's import makes for `{maximal device=N}`."""
    return f"{maximal_mesh_prefix()}_{device}"


@dataclass(frozen=True)
class ImportedSharding:
    """One tensor's sharding, on the global mesh or a maximal mesh, and the full axes it is manual on
    (in mesh order, which is also the order of the devices in its manual subgroup)."""

    sharding: TensorSharding
    manual_axes: tuple[str, ...] = ()


ImportedValue = Union[ImportedSharding, tuple[ImportedSharding, ...]]


class ShardingImportError(ValueError):
    """No mesh names the sharding of value `value` (an index into the shardings imported together)."""

    def __init__(self, message: str, value: int):
        super().__init__(message)
        self.value = value


@dataclass(frozen=True)
class ImportedShardings:
    """The global mesh `@mesh`, the maximal meshes by name (sorted by device), and one sharding
    per value (a tuple of them for a tuple sharding)."""

    mesh: Mesh
    maximal_meshes: tuple[tuple[str, Mesh], ...]
    values: tuple[ImportedValue, ...]

    def mesh_of(self, sharding: TensorSharding) -> Mesh:
        if sharding.mesh == GLOBAL_MESH_NAME:
            return self.mesh
        return dict(self.maximal_meshes)[sharding.mesh]


def import_shardings(
    shardings: Sequence[HloSharding],
    ranks: Sequence[int | Sequence[int]],
    labels: Sequence[str] | None = None,
) -> ImportedShardings:
    """The shardings of one module on one mesh with axes `_axis_0`, `_axis_1`, ... (major to minor).

    `ranks[i]` is the rank of value i's tensor (a sequence of ranks for a tuple sharding);
    errors name value i by `labels[i]` (default `value i`).
    Each tiled sharding, its devices read in mesh order, must be an iota: the
    mesh's devices cut into digits, transposed, and cut into the tile dims; each
    tile dim is then a run of digit ranges, i.e. of mesh axes and sub-axes. A
    digit range is an interval of "cuts" (products of the digit sizes from the
    major end), and the mesh cuts the devices at every cut that no value's cut
    crosses (neither divides the other), so axes are as fine as all values
    allow and each value names sub-axes where others cut coarser or across.
    The mesh order is the devices' own order when that names every value, else
    the first that does of the orders that sort the devices by one value's
    tiles, then by the others' (as `device_ids`). As sdy lists manual and
    unreduced axes in mesh order, the mesh's axes are then reordered, if need
    be, so that every manual and unreduced subgroup reads its axes in mesh
    order (XLA's equality sees the order of those subgroups' devices, unlike
    a replicated one's). As in XLA's import, the axes of a replicated subgroup
    are not listed as replicated axes: they are implicit, so a dim that is
    opened later (an `unspecified_dims` entry, an argument open to propagation)
    may still be sharded along them. {replicated} is
    closed and empty, {unknown} open and empty, {manual} and {unreduced} empty
    with every mesh axis manual or unreduced, and {maximal device=N} is on
    `@maximal_mesh_N` (`@single_device_N` where the installed XLA names it so).
    A manual subgroup must be whole mesh axes.
    Raises ShardingImportError naming the value that cannot be named and why.
    """
    if len(ranks) != len(shardings):
        raise ValueError(f"{len(shardings)} shardings but {len(ranks)} ranks")
    if labels is None:
        labels = [f"value {index}" for index in range(len(shardings))]
    leaves = _leaves(shardings, ranks, labels)
    tiled = [leaf for leaf in leaves if _is_tiled(leaf.sharding)]
    device_count = tiled[0].sharding.tile_assignment.num_devices if tiled else 1
    for leaf in tiled:
        count = leaf.sharding.tile_assignment.num_devices
        if count != device_count:
            raise ShardingImportError(
                f"{leaf.label} cannot be named: it tiles {count} devices, {tiled[0].label} tiles {device_count}",
                leaf.value,
            )
        if max(leaf.sharding.tile_assignment.devices) >= count:
            # sdy meshes number their devices 0..N-1.
            raise ShardingImportError(
                f"{leaf.label} cannot be named: its {count} devices are not 0..{count - 1}", leaf.value
            )
    layout = _find_layout(tiled, device_count)
    names = [f"_axis_{k}" for k in range(len(layout.cuts) - 1)]
    sizes = [high // low for low, high in zip(layout.cuts, layout.cuts[1:])]
    mesh = Mesh(tuple(MeshAxis(n, s) for n, s in zip(names, sizes)), layout.device_ids)
    naming = _Naming(layout.cuts, names)
    imported = [_import_leaf(leaf, layout.pieces.get(leaf), naming) for leaf in leaves]
    devices = sorted({leaf.sharding.device for leaf in leaves if leaf.sharding.kind is Kind.MAXIMAL})
    maximal_meshes = tuple((maximal_mesh_name(d), Mesh((), (d,))) for d in devices)
    return ImportedShardings(mesh, maximal_meshes, _regroup(imported, leaves, shardings))


# --------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Leaf:
    """A non-tuple sharding, the rank of its tensor, and how errors name it."""

    label: str
    sharding: HloSharding
    rank: int
    value: int


def _leaves(
    shardings: Sequence[HloSharding], ranks: Sequence[int | Sequence[int]], labels: Sequence[str]
) -> list[_Leaf]:
    leaves = []
    for index, (sharding, rank, label) in enumerate(zip(shardings, ranks, labels)):
        if sharding.kind is Kind.TUPLE:
            element_ranks = list(rank)
            if len(element_ranks) != len(sharding.elements):
                raise ShardingImportError(
                    f"{label} has {len(sharding.elements)} tuple elements but {len(element_ranks)} ranks", index
                )
            for element_index, (element, element_rank) in enumerate(zip(sharding.elements, element_ranks)):
                leaves.append(_Leaf(f"{label} (tuple element {element_index})", element, element_rank, index))
        else:
            leaves.append(_Leaf(label, sharding, int(rank), index))
    for leaf in leaves:
        if leaf.sharding.kind is Kind.TILED and len(leaf.sharding.data_tile_dims) != leaf.rank:
            raise ShardingImportError(
                f"{leaf.label} tiles {len(leaf.sharding.data_tile_dims)} dims of a rank-{leaf.rank} tensor",
                leaf.value,
            )
    return leaves


def _is_tiled(sharding: HloSharding) -> bool:
    """Tiled over more than one device (XLA reads a one-device tiling as replicated)."""
    return sharding.kind is Kind.TILED and sharding.tile_assignment.num_devices > 1


def _regroup(imported: list[ImportedSharding], leaves: list[_Leaf], shardings) -> tuple[ImportedValue, ...]:
    by_value: list[list[ImportedSharding]] = [[] for _ in shardings]
    for leaf, value in zip(leaves, imported):
        by_value[leaf.value].append(value)
    return tuple(
        tuple(group) if sharding.kind is Kind.TUPLE else group[0]
        for sharding, group in zip(shardings, by_value)
    )


# --------------------------------------------------------------------------
# The mesh
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Piece:
    """The digits `[low, high)` of the device order (as cuts: digit sizes multiplied from the
    major end) that make a major-to-minor part of tile dim `tile_dim`."""

    tile_dim: int
    low: int
    high: int


@dataclass(frozen=True)
class _Layout:
    cuts: list[int]  # the mesh's cuts, 1 to the device count: axis k is cuts[k]..cuts[k+1]
    device_ids: tuple[int, ...]  # empty for the iota order
    pieces: dict[_Leaf, list[_Piece]]  # per tiled leaf


class _Unnamed(Exception):
    """A value the mesh order being tried cannot name."""

    def __init__(self, leaf: _Leaf, reason: str):
        super().__init__(f"{leaf.label} cannot be named: {reason}")
        self.value = leaf.value


def _find_layout(tiled: list[_Leaf], device_count: int) -> _Layout:
    """The first mesh order that names every tiled value: the devices' own, else one led by a value."""
    orders = {tuple(range(device_count)): "the iota device order"}
    for leaf in tiled:
        orders.setdefault(_order_led_by(leaf, tiled), f"the device order led by {leaf.label}")
    failures = []
    for order, description in orders.items():
        try:
            return _layout_in_mesh_order(tiled, order)
        except _Unnamed as failure:
            failures.append((description, failure))
    first = failures[0][1]
    if len(failures) == 1:
        raise ShardingImportError(str(first), first.value)
    tried = "; ".join(f"in {description}: {failure}" for description, failure in failures)
    raise ShardingImportError(f"no mesh order names every value ({tried})", first.value)


def _order_led_by(first: _Leaf, tiled: list[_Leaf]) -> tuple[int, ...]:
    """The devices sorted by their tile in `first` (its replication groups aside), then by their
    tile in each other value in turn, then by their place in `first`.

    For a value without replication this is its tile order. When the values are block
    permutations of some mesh order, each value's tile index is a run of that order's
    digits, so sorting by them yields a block permutation of it too; the other values
    order the devices inside `first`'s replication groups, where `first` says nothing.
    """
    keys = [_tile_index(leaf) for leaf in [first] + [leaf for leaf in tiled if leaf is not first]]
    place = np.empty(len(keys[0]), dtype=np.int64)
    place[first.sharding.tile_assignment.array().ravel()] = np.arange(len(place))
    # np.lexsort sorts by its last key first.
    return tuple(int(d) for d in np.lexsort([place] + keys[::-1]))


def _tile_index(leaf: _Leaf) -> np.ndarray:
    """Per device, the row-major index of its tile among the dims that are not replication."""
    devices = leaf.sharding.tile_assignment.array()
    group = devices.shape[-1] if _subgroup_dim(leaf.sharding, SubgroupType.REPLICATED) is not None else 1
    index = np.empty(devices.size, dtype=np.int64)
    index[devices.ravel()] = np.arange(devices.size) // group
    return index


def _layout(tiled: list[_Leaf], order: tuple[int, ...]) -> _Layout:
    """The mesh cuts and each value's digit ranges when position p of the mesh is device `order[p]`."""
    position = np.argsort(np.asarray(order, dtype=np.int64))
    pieces = {leaf: _pieces_in_order(leaf, position) for leaf in tiled}
    cuts_of = {leaf: {c for p in leaf_pieces for c in (p.low, p.high)} for leaf, leaf_pieces in pieces.items()}
    all_cuts = set().union(*cuts_of.values())
    cuts = sorted({1, len(order)} | {c for c in all_cuts if all(_comparable(c, other) for other in all_cuts)})
    for leaf in tiled:
        manual_dim = _subgroup_dim(leaf.sharding, SubgroupType.MANUAL)
        manual_cuts = {c for p in pieces[leaf] if p.tile_dim == manual_dim for c in (p.low, p.high)}
        for cut in sorted(manual_cuts - set(cuts)):
            crossing = next(other for other, others in cuts_of.items() if any(not _comparable(cut, c) for c in others))
            raise _Unnamed(leaf, f"its manual devices need whole mesh axes, but {crossing.label} cuts across them")
    device_ids = () if order == tuple(range(len(order))) else order
    return _Layout(cuts, device_ids, pieces)


# Subgroups whose device order XLA's HloSharding equality sees (it sorts a replicated subgroup's
# devices) and whose axes sdy lists in mesh order.
_ORDERED_SUBGROUPS = (SubgroupType.MANUAL, SubgroupType.UNREDUCED)


def _layout_in_mesh_order(tiled: list[_Leaf], order: tuple[int, ...]) -> _Layout:
    """The layout of `order`, its mesh axes reordered if need be so that every manual and
    unreduced subgroup reads its axes in mesh order.

    Reordering whole mesh axes keeps every value named: each of its digit ranges, cut at the
    mesh's cuts, is a run of (parts of) whole axes, which stays a digit range when they move.
    """
    layout = _layout(tiled, order)
    if not _misordered(layout, tiled):
        return layout
    sizes = [high // low for low, high in zip(layout.cuts, layout.cuts[1:])]
    permutation = _axis_order(layout, tiled)
    reordered = np.asarray(order).reshape(sizes).transpose(permutation).ravel()
    layout = _layout(tiled, tuple(int(d) for d in reordered))
    misordered = _misordered(layout, tiled)
    if misordered:
        leaf, subgroup = misordered[0]
        raise _Unnamed(leaf, f"the devices of its {subgroup.value} subgroup are in no order of the mesh's axes")
    return layout


def _subgroup_parts(layout: _Layout, leaf: _Leaf, subgroup: SubgroupType) -> list[tuple[int, int]]:
    """The (mesh axis, lowest cut) of each part of the subgroup's digit ranges, major to minor."""
    dim = _subgroup_dim(leaf.sharding, subgroup)
    parts = []
    for piece in layout.pieces[leaf]:
        if piece.tile_dim != dim:
            continue
        for axis, (start, end) in enumerate(zip(layout.cuts, layout.cuts[1:])):
            if max(piece.low, start) < min(piece.high, end):
                parts.append((axis, max(piece.low, start)))
    return parts


def _misordered(layout: _Layout, tiled: list[_Leaf]) -> list[tuple[_Leaf, SubgroupType]]:
    """The manual and unreduced subgroups whose digits are not in mesh order."""
    misordered = []
    for leaf in tiled:
        for subgroup in _ORDERED_SUBGROUPS:
            lows = [low for _, low in _subgroup_parts(layout, leaf, subgroup)]
            if lows != sorted(lows):
                misordered.append((leaf, subgroup))
    return misordered


def _axis_order(layout: _Layout, tiled: list[_Leaf]) -> list[int]:
    """The layout's mesh axes in an order that puts each subgroup's axes in mesh order (and
    otherwise keeps theirs), or raise when the subgroups ask for contrary orders."""
    axis_count = len(layout.cuts) - 1
    after: list[set[int]] = [set() for _ in range(axis_count)]
    for leaf in tiled:
        for subgroup in _ORDERED_SUBGROUPS:
            parts = _subgroup_parts(layout, leaf, subgroup)
            for (axis, low), (next_axis, next_low) in zip(parts, parts[1:]):
                if axis == next_axis and low > next_low:
                    raise _Unnamed(
                        leaf, f"its {subgroup.value} subgroup reverses the parts of a mesh axis no value lets be cut"
                    )
                if axis != next_axis:
                    after[axis].add(next_axis)
    before_count = [0] * axis_count
    for successors in after:
        for axis in successors:
            before_count[axis] += 1
    ready = [axis for axis in range(axis_count) if before_count[axis] == 0]
    heapq.heapify(ready)
    permutation = []
    while ready:
        axis = heapq.heappop(ready)
        permutation.append(axis)
        for successor in after[axis]:
            before_count[successor] -= 1
            if before_count[successor] == 0:
                heapq.heappush(ready, successor)
    if len(permutation) < axis_count:
        leaf, subgroup = _misordered(layout, tiled)[0]
        raise _Unnamed(
            leaf,
            f"the devices of its {subgroup.value} subgroup ask for an order of the mesh's axes"
            " that another manual or unreduced subgroup contradicts",
        )
    return permutation


def _comparable(a: int, b: int) -> bool:
    return a % b == 0 or b % a == 0


def _pieces_in_order(leaf: _Leaf, position: np.ndarray) -> list[_Piece]:
    """The leaf's tile dims as digit ranges of the mesh order whose device at position p is
    `order[p]`; devices inside a replication group are in no particular order."""
    sharding = leaf.sharding
    tiles = sharding.tile_assignment
    relabeled = position[tiles.array()]
    if _subgroup_dim(sharding, SubgroupType.REPLICATED) is not None:
        relabeled = np.sort(relabeled, axis=-1)
    iota = Iota.find(relabeled.ravel())
    if iota is None:
        raise _Unnamed(leaf, "its devices are in no transposed order of the mesh's digits")
    pieces = _pieces(tiles.dims, iota)
    if pieces is None:
        raise _Unnamed(
            leaf,
            f"its tile dims [{','.join(map(str, tiles.dims))}] cut across the digits of its device order"
            f" {iota.to_text()}",
        )
    return pieces


def _pieces(tile_dims: Sequence[int], iota: Iota) -> list[_Piece] | None:
    """Each tile dim cut where the iota's transposed dims start and end, or None when a tile dim
    and an iota dim overlap without one containing the other."""
    starts = [math.prod(iota.reshape_dims[:r]) for r in range(len(iota.reshape_dims))]
    read = [[r, iota.reshape_dims[r], 1] for r in iota.transpose_perm]  # dim, rest, taken
    pieces = []
    k = 0
    for tile_dim, size in enumerate(tile_dims):
        while size > 1:
            dim, rest, taken = read[k]
            if size % rest == 0:
                part = rest
            elif rest % size == 0:
                part = size
            else:
                return None
            low = starts[dim] * taken
            pieces.append(_Piece(tile_dim, low, low * part))
            size //= part
            read[k][1:] = [rest // part, taken * part]
            if rest == part:
                k += 1
    return pieces


def _subgroup_dim(sharding: HloSharding, subgroup: SubgroupType) -> int | None:
    """The tile dim of the subgroup of that type, if the sharding has one."""
    dims = sharding.tile_assignment.dims
    if sharding.replicate_on_last_tile_dim:
        return len(dims) - 1 if subgroup is SubgroupType.REPLICATED else None
    types = sharding.subgroup_types
    if subgroup not in types:
        return None
    return len(dims) - len(types) + types.index(subgroup)


# --------------------------------------------------------------------------
# Naming
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Naming:
    """Digit ranges as axis refs of the mesh whose axis k spans cuts[k]..cuts[k+1]."""

    cuts: list[int]
    names: list[str]

    def refs(self, low: int, high: int) -> list[AxisRef]:
        refs = []
        for name, start, end in zip(self.names, self.cuts, self.cuts[1:]):
            part_low, part_high = max(low, start), min(high, end)
            if part_low >= part_high:
                continue
            if (part_low, part_high) == (start, end):
                refs.append(AxisRef(name))
            else:
                refs.append(AxisRef(name, SubAxisInfo(part_low // start, part_high // part_low)))
        return refs

    def sorted_refs(self, pieces: list[_Piece]) -> tuple[AxisRef, ...]:
        """The pieces in mesh order, touching ones merged (as sdy wants unreduced axes)."""
        ranges: list[list[int]] = []
        for piece in sorted(pieces, key=lambda p: p.low):
            if ranges and ranges[-1][1] == piece.low:
                ranges[-1][1] = piece.high
            else:
                ranges.append([piece.low, piece.high])
        return tuple(ref for low, high in ranges for ref in self.refs(low, high))


def _import_leaf(leaf: _Leaf, pieces: list[_Piece] | None, naming: _Naming) -> ImportedSharding:
    sharding, rank = leaf.sharding, leaf.rank
    if sharding.kind is Kind.MAXIMAL:
        return ImportedSharding(TensorSharding(maximal_mesh_name(sharding.device), ()))
    if pieces is None:
        if sharding.kind is Kind.UNKNOWN:
            return ImportedSharding(TensorSharding.fully_open(GLOBAL_MESH_NAME, rank))
        closed = TensorSharding.fully_closed(GLOBAL_MESH_NAME, rank)
        if sharding.kind is Kind.MANUAL:
            return ImportedSharding(closed, tuple(naming.names))
        if sharding.kind is Kind.UNREDUCED:
            unreduced = tuple(AxisRef(name) for name in naming.names)
            return ImportedSharding(TensorSharding(GLOBAL_MESH_NAME, closed.dims, unreduced=unreduced))
        return ImportedSharding(closed)
    dims = tuple(
        DimSharding(tuple(ref for p in pieces if p.tile_dim == d for ref in naming.refs(p.low, p.high)))
        for d in range(rank)
    )

    def subgroup_pieces(subgroup: SubgroupType) -> list[_Piece]:
        dim = _subgroup_dim(sharding, subgroup)
        return [p for p in pieces if p.tile_dim == dim] if dim is not None else []

    # Manual axes major to minor in the subgroup: their order is the order of the devices in it.
    manual = [ref for p in subgroup_pieces(SubgroupType.MANUAL) for ref in naming.refs(p.low, p.high)]
    return ImportedSharding(
        TensorSharding(GLOBAL_MESH_NAME, dims, unreduced=naming.sorted_refs(subgroup_pieces(SubgroupType.UNREDUCED))),
        tuple(ref.name for ref in manual),
    )
