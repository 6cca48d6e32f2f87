"""The sequence of sdy collectives (all-slice, collective-permute, all-to-all, all-gather) that turns one sharding into another, as Shardy's reshard-to-collectives plans it.

Plain data in, plain data out: `plan_collectives` takes the input and output
shardings of an `sdy.reshard` (with their meshes and the tensor shape) and
returns the collectives in order, each with the sharding it produces.

The state follows the planner step by step. Per dimension, `in_axes` and
`out_axes` hold what is left of the current and the output sharding once
their common prefix is dropped (the reshard is done when both are empty),
and `current_axes` the whole current sharding. Sub-axes of the input and
output are first split where they partly overlap, so two axes that overlap
are equal and can be looked up by value.

With `empty_uneven_dims`, a dimension that both shardings shard but pad to
different sizes is resharded only once it is empty: it keeps its common
prefix, its axes leave all together (one all-gather, or an all-to-all of
all of them), its out axes are neither sliced nor moved in before, and no
collective-permute runs while such a dimension is left; the planner then
runs up to three rounds instead of two.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable, Optional, Sequence

from pysdy.dialects.sdy import AxisRef, DimSharding, Mesh, TensorSharding
from pysdy.passes.propagation import axis_refs


@dataclasses.dataclass(frozen=True)
class AllSlice:
    slicing_axes: tuple[tuple[AxisRef, ...], ...]
    out_sharding: TensorSharding


@dataclasses.dataclass(frozen=True)
class AllGather:
    gathering_axes: tuple[tuple[AxisRef, ...], ...]
    out_sharding: TensorSharding


@dataclasses.dataclass(frozen=True)
class AllToAll:
    axes: tuple[AxisRef, ...]
    src_dim: int
    tgt_dim: int
    out_sharding: TensorSharding


@dataclasses.dataclass(frozen=True)
class CollectivePermute:
    out_sharding: TensorSharding


Collective = AllSlice | AllGather | AllToAll | CollectivePermute


class IncompleteReshardError(ValueError):
    """The planner stopped before the current sharding became the output sharding."""


# --------------------------------------------------------------------------
# Axis helpers
# --------------------------------------------------------------------------


def _sorted_axes(axes: Sequence[AxisRef]) -> list[AxisRef]:
    return sorted(axes, key=axis_refs.axis_order_key)


def _overlap(ref: AxisRef, other: AxisRef) -> AxisRef:
    """The part `ref` and `other` share (they overlap and can coexist)."""
    if ref.sub_axis is None:
        return other
    if other.sub_axis is None:
        return ref
    pre = max(ref.sub_axis.pre_size, other.sub_axis.pre_size)
    next_pre = min(ref.sub_axis.next_pre_size, other.sub_axis.next_pre_size)
    return axis_refs.sub_axis(ref.name, pre, next_pre // pre)


def _sharded_size(axes: Sequence[AxisRef], mesh: Mesh) -> int:
    return axis_refs.total_size(axes, mesh)


def _divisible_either_way(a: int, b: int) -> bool:
    return a % b == 0 or b % a == 0


def _split_to_capacity(ref: AxisRef, capacity: int, mesh: Mesh) -> tuple[Optional[AxisRef], Optional[AxisRef], int]:
    """How much of `ref` fits in `capacity`: (the part that fits, the rest, the capacity left).

    Nothing fits when the capacity is 1 or it and the axis size do not divide
    one another; a bigger axis is split into a major part of the capacity's
    size and the minor rest.
    """
    size = ref.size(mesh)
    if capacity <= 1 or not _divisible_either_way(size, capacity):
        return None, None, capacity
    if capacity >= size:
        return ref, None, capacity // size
    pre = axis_refs.pre_size(ref)
    within = axis_refs.sub_axis(ref.name, pre, capacity)
    remainder = axis_refs.sub_axis(ref.name, pre * capacity, size // capacity)
    return within, remainder, 1


def _align_axes(axes: list[AxisRef], ordered_others: Sequence[AxisRef], mesh: Mesh) -> None:
    """Splits every axis of `axes` that partly overlaps an axis of sorted `ordered_others` into its prefix, overlap and suffix."""
    index = 0
    while index < len(axes):
        ref = axes[index]
        other_index = axis_refs.first_overlapping(ref, ordered_others)
        moved_past = False
        while other_index is not None and other_index < len(ordered_others):
            other = ordered_others[other_index]
            if not (
                axis_refs.can_coexist(other, ref)
                and not axis_refs.contains(other, ref)
                and axis_refs.overlaps(other, ref)
            ):
                break
            del axes[index]
            prefix = axis_refs.prefix_without_overlap(ref, other)
            if prefix is not None:
                axes.insert(index, prefix)
                index += 1
            axes.insert(index, _overlap(ref, other))
            index += 1
            suffix = axis_refs.suffix_without_overlap(ref, other, mesh)
            if suffix is None:
                moved_past = True
                break
            axes.insert(index, suffix)
            ref = suffix
            other_index += 1
        if not moved_past:
            index += 1


def _align_axes_per_dim(axes_per_dim: list[list[AxisRef]], ordered_others: Sequence[AxisRef], mesh: Mesh) -> None:
    if not ordered_others:
        return
    for axes in axes_per_dim:
        _align_axes(axes, ordered_others, mesh)


def align_sub_axes(first: list[list[AxisRef]], second: list[list[AxisRef]], mesh: Mesh) -> None:
    """Shardy's `alignSubAxesByDecomposition`: splits the axes (per dimension) of each of two shardings where they
    partly overlap an axis of the other, so two axes that overlap are equal."""
    ordered_first = _sorted_axes([ref for axes in first for ref in axes])
    ordered_second = _sorted_axes([ref for axes in second for ref in axes])
    _align_axes_per_dim(first, ordered_second, mesh)
    _align_axes_per_dim(second, ordered_first, mesh)


def _axis_positions(axes_per_dim: Sequence[Sequence[AxisRef]]) -> dict[AxisRef, tuple[int, int]]:
    """Each axis -> (its dimension, its index there), first occurrence kept."""
    positions: dict[AxisRef, tuple[int, int]] = {}
    for dim, axes in enumerate(axes_per_dim):
        for index, ref in enumerate(axes):
            positions.setdefault(ref, (dim, index))
    return positions


def _pop_back_from_current(current: list[AxisRef], popped: Sequence[AxisRef]) -> None:
    """Removes `popped` (possibly split sub-axes of current axes) from the back of `current`."""
    for ref in reversed(popped):
        prefix = axis_refs.prefix_without_overlap(current[-1], ref)
        if prefix is not None:
            current[-1] = prefix
        else:
            current.pop()


# --------------------------------------------------------------------------
# The planner
# --------------------------------------------------------------------------


class _Planner:
    def __init__(
        self,
        in_sharding: TensorSharding,
        out_sharding: TensorSharding,
        out_mesh_name: str,
        mesh: Mesh,
        shape: Sequence[int],
        empty_uneven_dims: bool,
    ):
        self.mesh = mesh
        self.shape = tuple(shape)
        self.mesh_name = in_sharding.mesh
        self.out_mesh_name = out_mesh_name
        self.unreduced = out_sharding.unreduced
        self.in_axes = [list(dim.axes) for dim in in_sharding.dims]
        self.out_axes = [list(dim.axes) for dim in out_sharding.dims]
        self.current_axes = [list(dim.axes) for dim in in_sharding.dims]
        self.capacity = [1] * len(self.in_axes)
        self.collectives: list[Collective] = []

        align_sub_axes(self.in_axes, self.out_axes, mesh)
        # Dimensions resharded only once emptied: they keep their common prefix, and their out axes are hidden
        # (neither sliced nor a target) until then.
        self.uneven_dims = _unevenly_padded_dims(in_sharding, out_sharding, mesh, shape) if empty_uneven_dims else set()
        for dim, (in_axes, out_axes) in enumerate(zip(self.in_axes, self.out_axes)):
            while dim not in self.uneven_dims and in_axes and out_axes and in_axes[0] == out_axes[0]:
                in_axes.pop(0)
                out_axes.pop(0)
        self.in_set = {ref for axes in self.in_axes for ref in axes}
        self.update_out_positions()
        self.rounds = 3 if empty_uneven_dims else 2

    def update_out_positions(self) -> None:
        self.out_positions = _axis_positions(
            [[] if dim in self.uneven_dims else axes for dim, axes in enumerate(self.out_axes)]
        )

    def mark_emptied(self, dim: int) -> None:
        """`dim`, uneven, now has no axes: its out axes are sliced or moved in like any other's from now on."""
        self.uneven_dims.discard(dim)
        self.update_out_positions()

    @property
    def rank(self) -> int:
        return len(self.in_axes)

    def is_done(self) -> bool:
        return self.mesh_name == self.out_mesh_name and not any(self.in_axes) and not any(self.out_axes)

    def current_sharding(self) -> TensorSharding:
        return TensorSharding(
            self.mesh_name, tuple(DimSharding(tuple(axes)) for axes in self.current_axes), (), self.unreduced
        )

    def size(self, ref: AxisRef) -> int:
        return ref.size(self.mesh)

    def plan(self) -> list[Collective]:
        # Power-of-two meshes are done after one round; others need at most two, or three where a dimension is
        # emptied first (Shardy stops there, done or not).
        for _ in range(self.rounds):
            if self.is_done():
                break
            self.try_all_slice()
            self.try_collective_permute()
            self.try_all_to_alls(allow_out_of_order_target=False)
            self.try_all_to_alls(allow_out_of_order_target=True)
            self.try_all_gather()
        if not self.is_done() and not self.only_size_one_axes_left():
            raise IncompleteReshardError("the collectives found do not reach the output sharding")
        return self.collectives

    def only_size_one_axes_left(self) -> bool:
        """Whether what is left to reshard is only axes of size 1, which no collective moves (Shardy stops there
        too: its check that the reshard is done is an assertion, compiled out of jaxlib)."""
        left = [ref for axes in self.in_axes + self.out_axes for ref in axes]
        return self.mesh_name == self.out_mesh_name and all(self.size(ref) == 1 for ref in left)

    # ---- capacity-bound distribution ------------------------------------

    def distribute_within_capacity(
        self,
        available_for_dim: Callable[[int], list[AxisRef]],
        add_to_front: bool,
        consume: Callable[[AxisRef, int], None] = lambda ref, dim: None,
    ) -> None:
        """Per dimension, moves axes of `available_for_dim(dim)` into its in-axes while its capacity allows.

        An axis bigger than the capacity left is split and its major part moved.
        """
        split_added: list[AxisRef] = []
        for dim in range(self.rank):
            in_axes = self.in_axes[dim]
            insert_at = 0 if add_to_front else None
            available = available_for_dim(dim)
            index = 0
            while index < len(available) and self.capacity[dim] > 1:
                within, remainder, self.capacity[dim] = _split_to_capacity(available[index], self.capacity[dim], self.mesh)
                if within is None:
                    index += 1
                    continue
                del available[index]
                if insert_at is None:
                    in_axes.append(within)
                else:
                    in_axes.insert(insert_at, within)
                    insert_at += 1
                self.in_set.add(within)
                consume(within, dim)
                if remainder is not None:
                    split_added.append(within)
                    available.insert(0, remainder)
                    index += 1
        _align_axes_per_dim(self.out_axes, _sorted_axes(split_added), self.mesh)

    # ---- all-slice --------------------------------------------------------

    def axes_to_slice_for_all_to_all(self, src_dim: int) -> Optional[list[AxisRef]]:
        """Out axes of another dimension to slice at `src_dim` now, so a later all-to-all moves them there in order.

        Only when `src_dim` has in-axes and no out-axes, the target has no
        in-axes, a suffix of the source's in-axes sits in the target's out-axes
        right before axes that are free to slice, no other source axis is
        bound for the target, and the source dimension (with all its current
        axes) can hold them without padding.
        Borrows the target's slicing capacity.
        """
        src_in = self.in_axes[src_dim]
        if not src_in or self.out_axes[src_dim]:
            return None
        position = self.out_positions.get(src_in[-1])
        if position is None:
            return None
        tgt_dim = position[0]
        if self.in_axes[tgt_dim]:
            return None
        tgt_out = self.out_axes[tgt_dim]
        start = tgt_out.index(src_in[-1]) + 1
        if start == len(tgt_out) or tgt_out[start] in self.in_set:
            return None

        in_index, out_index = len(src_in) - 1, start - 1
        all_to_all_size = 1
        while in_index >= 0 and out_index >= 0 and src_in[in_index] == tgt_out[out_index]:
            all_to_all_size *= self.size(src_in[in_index])
            in_index -= 1
            out_index -= 1
        for ref in src_in[: in_index + 1]:
            position = self.out_positions.get(ref)
            if position is not None and position[0] == tgt_dim:
                return None

        end = start
        sliced_size = 1
        while end < len(tgt_out) and tgt_out[end] not in self.in_set:
            sliced_size *= self.size(tgt_out[end])
            end += 1
        if self.shape[src_dim] % (_sharded_size(self.current_axes[src_dim], self.mesh) * sliced_size) != 0:
            return None
        all_to_all_size *= sliced_size
        self.capacity[tgt_dim] //= all_to_all_size
        return tgt_out[start:end]

    def slicing_axes_per_dim(self) -> Optional[list[list[AxisRef]]]:
        """The axes to all-slice per dimension (None if none), updating the state as if sliced."""
        slicing: list[list[AxisRef]] = [[] for _ in range(self.rank)]
        has_slicing = False
        for dim, (in_axes, out_axes) in enumerate(zip(self.in_axes, self.out_axes)):
            in_size, out_size = _sharded_size(in_axes, self.mesh), _sharded_size(out_axes, self.mesh)
            self.capacity[dim] = 1 if dim in self.uneven_dims else out_size // math.gcd(in_size, out_size)

        # 1. Out axes sliced at the source dimension of a later all-to-all.
        for src_dim in range(self.rank):
            axes = self.axes_to_slice_for_all_to_all(src_dim)
            if axes is None:
                continue
            has_slicing = True
            for ref in axes:
                self.in_axes[src_dim].append(ref)
                self.in_set.add(ref)
                axis_refs.add_axis_or_merge(slicing[src_dim], ref, self.mesh)
                axis_refs.add_axis_or_merge(self.current_axes[src_dim], ref, self.mesh)

        # 2. Free out axes sliced at their own dimension while its capacity allows.
        available_out: list[AxisRef] = []
        for dim in range(self.rank):
            if dim in self.uneven_dims:
                continue
            in_axes, out_axes, current = self.in_axes[dim], self.out_axes[dim], self.current_axes[dim]
            index = 0
            while index < len(out_axes):
                out_ref = out_axes[index]
                if out_ref in self.in_set:
                    index += 1
                    continue
                within, remainder, self.capacity[dim] = _split_to_capacity(out_ref, self.capacity[dim], self.mesh)
                if within is None:
                    available_out.append(out_ref)
                    index += 1
                    continue
                has_slicing = True
                axis_refs.add_axis_or_merge(slicing[dim], within, self.mesh)
                axis_refs.add_axis_or_merge(current, within, self.mesh)
                if not in_axes and index == 0:
                    del out_axes[0]
                else:
                    self.in_set.add(within)
                    in_axes.append(within)
                    out_axes[index] = within
                    index += 1
                if remainder is not None:
                    out_axes.insert(index, remainder)
                    index += 1
                    available_out.append(remainder)

        # 3. The remaining free out axes sliced at the first dimension with capacity.
        def slice_there(ref: AxisRef, dim: int) -> None:
            nonlocal has_slicing
            has_slicing = True
            axis_refs.add_axis_or_merge(slicing[dim], ref, self.mesh)
            axis_refs.add_axis_or_merge(self.current_axes[dim], ref, self.mesh)

        self.distribute_within_capacity(lambda dim: available_out, add_to_front=False, consume=slice_there)
        self.update_out_positions()
        return slicing if has_slicing else None

    def try_all_slice(self) -> None:
        slicing = self.slicing_axes_per_dim()
        if slicing is not None:
            self.collectives.append(AllSlice(tuple(map(tuple, slicing)), self.current_sharding()))

    # ---- collective-permute -----------------------------------------------

    def should_collective_permute(self) -> bool:
        """Whether some axes are better replaced or reordered in place than moved by all-to-alls or gathered."""
        if self.uneven_dims:
            return False
        available_in: Optional[AxisRef] = None
        available_out: Optional[AxisRef] = None
        for dim, (in_axes, out_axes) in enumerate(zip(self.in_axes, self.out_axes)):
            if in_axes and out_axes and _divisible_either_way(self.size(in_axes[0]), self.size(out_axes[0])):
                return True
            for out_ref in out_axes:
                if out_ref not in self.in_set:
                    available_out = out_ref
            last_out_dim: Optional[int] = None
            last_out_index = 0
            seen_dims: set[int] = set()
            for in_ref in in_axes:
                position = self.out_positions.get(in_ref)
                out_dim: Optional[int] = None
                if position is not None:
                    out_dim, out_index = position
                    if (out_dim == dim or out_dim in seen_dims) and (
                        last_out_dim != out_dim or out_index != last_out_index + 1
                    ):
                        return True
                    seen_dims.add(out_dim)
                    last_out_index = out_index
                elif last_out_dim is not None and not out_axes:
                    return True
                else:
                    available_in = in_ref
                last_out_dim = out_dim
        return (
            available_out is not None
            and available_in is not None
            and _divisible_either_way(self.size(available_out), self.size(available_in))
        )

    def perform_collective_permute(self) -> None:
        """Re-picks every dimension's in-axes, keeping its sharded size.

        Out axes go first where they belong, then wherever there is room; the
        axes still to gather fill the rest, at the front.
        """
        available_out: list[AxisRef] = []
        available_in_per_dim: list[list[AxisRef]] = [[] for _ in range(self.rank)]
        self.in_set.clear()
        for dim in range(self.rank):
            in_axes, out_axes, current = self.in_axes[dim], self.out_axes[dim], self.current_axes[dim]
            capacity = _sharded_size(in_axes, self.mesh)
            used_capacity = capacity
            _pop_back_from_current(current, in_axes)
            while capacity > 1 and out_axes:
                within, remainder, capacity = _split_to_capacity(out_axes[0], capacity, self.mesh)
                if within is None:
                    break
                out_axes.pop(0)
                axis_refs.add_axis_or_merge(current, within, self.mesh)
                if remainder is not None:
                    out_axes.insert(0, remainder)
            self.capacity[dim] = capacity
            available_out.extend(out_axes)

            used_capacity //= capacity
            remaining_in = [ref for ref in in_axes if ref not in self.out_positions]
            taken: list[AxisRef] = []
            while used_capacity > 1 and remaining_in:
                within, remainder, used_capacity = _split_to_capacity(remaining_in[0], used_capacity, self.mesh)
                if within is None:
                    break
                remaining_in.pop(0)
                taken.append(within)
                if remainder is not None:
                    remaining_in.insert(0, remainder)
            available_in_per_dim[dim] = remaining_in + taken
            in_axes.clear()

        self.distribute_within_capacity(lambda dim: available_out, add_to_front=False)
        self.distribute_within_capacity(lambda dim: available_in_per_dim[dim], add_to_front=True)
        available_in = [ref for axes in available_in_per_dim for ref in axes]
        self.distribute_within_capacity(lambda dim: available_in, add_to_front=True)
        self.update_out_positions()
        for in_axes, current in zip(self.in_axes, self.current_axes):
            for ref in in_axes:
                axis_refs.add_axis_or_merge(current, ref, self.mesh)

    def try_collective_permute(self) -> None:
        if self.should_collective_permute():
            self.perform_collective_permute()
        elif self.mesh_name == self.out_mesh_name:
            return
        # A permute is also how the device order changes to the output mesh's.
        self.mesh_name = self.out_mesh_name
        self.collectives.append(CollectivePermute(self.current_sharding()))

    # ---- all-to-all -------------------------------------------------------

    def all_to_all_from(self, src_dim: int, allow_out_of_order_target: bool) -> Optional[tuple[int, list[AxisRef]]]:
        """The target dimension and axes of an all-to-all moving the in-axes suffix of `src_dim` bound for one other dimension."""
        src_in = self.in_axes[src_dim]
        start = len(src_in)
        tgt_dim: Optional[int] = None
        while start > 0:
            position = self.out_positions.get(src_in[start - 1])
            if position is None or position[0] == src_dim or (tgt_dim is not None and position[0] != tgt_dim):
                break
            tgt_dim = position[0]
            start -= 1
        if tgt_dim is None or (src_dim in self.uneven_dims and start > 0):
            return None
        tgt_out = self.out_axes[tgt_dim]
        moved = src_in[start:]
        if not allow_out_of_order_target and tgt_out[: len(moved)] != moved:
            return None

        axes: list[AxisRef] = []
        _pop_back_from_current(self.current_axes[src_dim], moved)
        del src_in[start:]
        tgt_in = self.in_axes[tgt_dim]
        for ref in moved:
            axis_refs.add_axis_or_merge(axes, ref, self.mesh)
            axis_refs.add_axis_or_merge(self.current_axes[tgt_dim], ref, self.mesh)
            self.in_set.discard(ref)
            if not tgt_in and tgt_out and tgt_out[0] == ref:
                tgt_out.pop(0)
            else:
                tgt_in.append(ref)
                self.in_set.add(ref)
        if src_dim in self.uneven_dims:
            self.mark_emptied(src_dim)
        return tgt_dim, axes

    def try_all_to_alls(self, allow_out_of_order_target: bool) -> None:
        for src_dim in range(self.rank):
            while (found := self.all_to_all_from(src_dim, allow_out_of_order_target)) is not None:
                tgt_dim, axes = found
                self.collectives.append(AllToAll(tuple(axes), src_dim, tgt_dim, self.current_sharding()))

    # ---- all-gather -------------------------------------------------------

    def gathering_axes(self, dim: int) -> list[AxisRef]:
        """The suffix of `dim`'s in-axes that no output dimension keeps (all of them in an uneven dimension), removed
        from the state."""
        in_axes = self.in_axes[dim]
        start = len(in_axes)
        while start > 0 and (dim in self.uneven_dims or in_axes[start - 1] not in self.out_positions):
            self.in_set.discard(in_axes[start - 1])
            start -= 1
        gathered = in_axes[start:]
        _pop_back_from_current(self.current_axes[dim], gathered)
        del in_axes[start:]
        axes: list[AxisRef] = []
        for ref in gathered:
            axis_refs.add_axis_or_merge(axes, ref, self.mesh)
        return axes

    def try_all_gather(self) -> None:
        gathering = [self.gathering_axes(dim) for dim in range(self.rank)]
        for dim in list(self.uneven_dims):
            self.mark_emptied(dim)
        if any(gathering):
            self.collectives.append(AllGather(tuple(map(tuple, gathering)), self.current_sharding()))


def plan_collectives(
    in_sharding: TensorSharding,
    out_sharding: TensorSharding,
    out_mesh_name: str,
    mesh: Mesh,
    shape: Sequence[int],
    empty_uneven_dims: bool = False,
) -> list[Collective]:
    """The collectives, in order, that reshard a tensor of `shape` from `in_sharding` to `out_sharding`.

    `out_mesh_name` names the mesh to end on: `mesh`'s axes, maybe in another
    device order than the input's (reached with a collective-permute). Every
    collective carries the output's unreduced axes. The last collective's
    sharding is the output sharding, but for axes of size 1 it may lack or
    misplace. Raises `IncompleteReshardError` when the planner stops short of
    the output otherwise. `empty_uneven_dims`: empty a dimension the two
    shardings pad to different sizes before resharding it (see the module
    docstring).
    """
    planner = _Planner(in_sharding, out_sharding, out_mesh_name, mesh, shape, empty_uneven_dims)
    return planner.plan()


def _unevenly_padded_dims(
    in_sharding: TensorSharding, out_sharding: TensorSharding, mesh: Mesh, shape: Sequence[int]
) -> set[int]:
    """The dimensions sharded on both sides that the input and output shardings pad to different sizes."""
    dims = set()
    for dim, (in_dim, out_dim, size) in enumerate(zip(in_sharding.dims, out_sharding.dims, shape)):
        in_shards = _sharded_size(in_dim.axes, mesh)
        out_shards = _sharded_size(out_dim.axes, mesh)
        if in_shards > 1 and out_shards > 1 and _padded_size(size, in_shards) != _padded_size(size, out_shards):
            dims.add(dim)
    return dims


def _padded_size(size: int, shards: int) -> int:
    return -(-size // shards) * shards
