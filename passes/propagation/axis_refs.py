"""The axis-ref algebra of Shardy: relations and operations on (sub-)axes and axis lists of a mesh.

An axis ref is a full mesh axis or a sub-axis `"x":(pre)size`, i.e. the
devices indexed by `(i // pre) % size` of axis "x". Everything here is plain
arithmetic on `pysdy.dialects.sdy.AxisRef` values, mirroring `AxisRefAttr`.
"""

from __future__ import annotations

import bisect
import enum
import math
import sys
from typing import Optional, Sequence

from pysdy.dialects.sdy import AxisRef, Mesh, SubAxisInfo


def sub_axis(name: str, pre_size: int, size: int) -> AxisRef:
    """The sub-axis `"name":(pre_size)size` (always a sub-axis, even when it covers the axis)."""
    return AxisRef(name, SubAxisInfo(pre_size, size))


def pre_size(ref: AxisRef) -> int:
    return ref.sub_axis.pre_size if ref.sub_axis is not None else 1


def next_pre_size_or_full_size(ref: AxisRef, mesh: Mesh) -> int:
    return ref.sub_axis.next_pre_size if ref.sub_axis is not None else ref.size(mesh)


def sort_key(ref: AxisRef) -> tuple[str, int, int]:
    """Shardy's `AxisRefAttr::operator<`: by name; of one axis, sub-axes by (pre-size, size),
    the full axis after its sub-axes of pre-size 1 and before the others."""
    if ref.sub_axis is None:
        return (ref.name, 1, sys.maxsize)
    return (ref.name, ref.sub_axis.pre_size, ref.sub_axis.size)


def contains(ref: AxisRef, other: AxisRef) -> bool:
    if ref.name != other.name:
        return False
    if ref.sub_axis is None:
        return True
    if other.sub_axis is None:
        return False
    return (
        ref.sub_axis.pre_size <= other.sub_axis.pre_size
        and ref.sub_axis.next_pre_size >= other.sub_axis.next_pre_size
    )


def prefix_of(ref: AxisRef, other: AxisRef) -> bool:
    return contains(other, ref) and pre_size(ref) == pre_size(other)


def strict_prefix_of(ref: AxisRef, other: AxisRef) -> bool:
    return ref != other and prefix_of(ref, other)


def overlaps(ref: AxisRef, other: AxisRef) -> bool:
    if ref.name != other.name:
        return False
    if ref.sub_axis is None or other.sub_axis is None:
        return True
    return (
        ref.sub_axis.pre_size < other.sub_axis.next_pre_size
        and other.sub_axis.pre_size < ref.sub_axis.next_pre_size
    )


def _sub_axes_can_coexist(min_pre: int, max_pre: int, min_next: int, max_next: int) -> bool:
    if min_next > max_pre:
        # Overlapping: both the shared part and the parts outside it must be whole.
        return min_next % max_pre == 0 and max_pre % min_pre == 0 and max_next % min_next == 0
    # Disjoint: the gap between them must be whole.
    return max_pre % min_next == 0


def _bounds(ref: AxisRef, other: AxisRef) -> tuple[int, int, int, int]:
    pres = sorted((ref.sub_axis.pre_size, other.sub_axis.pre_size))
    nexts = sorted((ref.sub_axis.next_pre_size, other.sub_axis.next_pre_size))
    return pres[0], pres[1], nexts[0], nexts[1]


def can_coexist(ref: AxisRef, other: AxisRef) -> bool:
    """Whether both can appear in one sharding (a sub-axis split that is consistent)."""
    if ref.name != other.name or ref.sub_axis is None or other.sub_axis is None:
        return True
    return _sub_axes_can_coexist(*_bounds(ref, other))


def prefix_without_overlap(ref: AxisRef, other: AxisRef) -> Optional[AxisRef]:
    """The largest prefix of `ref` not overlapping `other`, or None if there is none."""
    if not can_coexist(ref, other):
        return None
    if not overlaps(ref, other):
        return ref
    this_pre, other_pre = pre_size(ref), pre_size(other)
    if this_pre >= other_pre:
        return None
    return sub_axis(ref.name, this_pre, other_pre // this_pre)


def prefix_without_overlap_with_all(ref: AxisRef, others: Sequence[AxisRef]) -> Optional[AxisRef]:
    """`prefix_without_overlap` against each of `others` in turn."""
    result: Optional[AxisRef] = ref
    for other in others:
        result = prefix_without_overlap(result, other)
        if result is None:
            return None
    return result


def suffix_without_overlap(ref: AxisRef, other: AxisRef, mesh: Mesh) -> Optional[AxisRef]:
    """The largest suffix of `ref` not overlapping `other`, or None if there is none."""
    if not can_coexist(ref, other):
        return None
    if not overlaps(ref, other):
        return ref
    this_next = next_pre_size_or_full_size(ref, mesh)
    other_next = next_pre_size_or_full_size(other, mesh)
    if this_next <= other_next:
        return None
    return sub_axis(ref.name, other_next, this_next // other_next)


def can_merge(ref: AxisRef, other: AxisRef) -> bool:
    """Whether `other` is the sub-axis right after sub-axis `ref`."""
    return (
        ref.name == other.name
        and ref.sub_axis is not None
        and other.sub_axis is not None
        and ref.sub_axis.next_pre_size == other.sub_axis.pre_size
    )


def merge(ref: AxisRef, other: AxisRef, mesh: Mesh) -> AxisRef:
    """The sub-axis spanning `ref` then `other` (the full axis when it covers it)."""
    size = ref.sub_axis.size * other.sub_axis.size
    if ref.sub_axis.pre_size == 1 and mesh.axis_size(ref.name) == size:
        return AxisRef(ref.name)
    return sub_axis(ref.name, ref.sub_axis.pre_size, size)


def greatest_common_prefix(ref: AxisRef, other: AxisRef) -> Optional[AxisRef]:
    if not can_coexist(ref, other):
        return None
    if prefix_of(ref, other):
        return ref
    if prefix_of(other, ref):
        return other
    return None


def axis_order_key(ref: AxisRef) -> tuple[str, int, float]:
    """Shardy's `AxisRefAttr` order: by name, then a full axis as the sub-axis `(1)infinity`."""
    if ref.sub_axis is None:
        return (ref.name, 1, math.inf)
    return (ref.name, ref.sub_axis.pre_size, ref.sub_axis.size)


def first_overlapping(ref: AxisRef, ordered: Sequence[AxisRef]) -> Optional[int]:
    """The index of the first axis of `ordered` (sorted by `axis_order_key`) that overlaps `ref`, if any."""
    after = bisect.bisect_left([axis_order_key(a) for a in ordered], axis_order_key(ref))
    if after > 0 and overlaps(ordered[after - 1], ref):
        return after - 1
    if after < len(ordered) and overlaps(ordered[after], ref):
        return after
    return None


# --------------------------------------------------------------------------
# Axis lists (a dimension's or a factor's axes, major to minor)
# --------------------------------------------------------------------------


class PrefixStatus(enum.Enum):
    EQUAL = "equal"
    STRICT_PREFIX = "strict_prefix"
    NOT_A_PREFIX = "not_a_prefix"


def axis_list_prefix_status(first: Sequence[AxisRef], second: Sequence[AxisRef]) -> PrefixStatus:
    """Whether `first` equals `second`, is a strict prefix of it (its last axis may be a prefix), or neither."""
    if not first:
        return PrefixStatus.EQUAL if not second else PrefixStatus.STRICT_PREFIX
    if len(first) > len(second):
        return PrefixStatus.NOT_A_PREFIX
    last = len(first) - 1
    if any(first[i] != second[i] for i in range(last)):
        return PrefixStatus.NOT_A_PREFIX
    if len(first) == len(second) and first[last] == second[last]:
        return PrefixStatus.EQUAL
    if prefix_of(first[last], second[last]):
        return PrefixStatus.STRICT_PREFIX
    return PrefixStatus.NOT_A_PREFIX


def is_strict_prefix(first: Sequence[AxisRef], second: Sequence[AxisRef]) -> bool:
    return axis_list_prefix_status(first, second) is PrefixStatus.STRICT_PREFIX


def greatest_common_prefix_of_lists(first: Sequence[AxisRef], second: Sequence[AxisRef]) -> list[AxisRef]:
    """The longest list both start with, its last axis possibly a prefix of theirs."""
    common: list[AxisRef] = []
    for ref, other in zip(first, second):
        if ref == other:
            common.append(ref)
            continue
        prefix = greatest_common_prefix(ref, other)
        if prefix is not None:
            common.append(prefix)
        break
    return common


def add_axis_or_merge(axes: list[AxisRef], ref: AxisRef, mesh: Mesh) -> None:
    """Appends `ref`, merged into the last axis when it is that sub-axis's continuation."""
    if axes and can_merge(axes[-1], ref):
        axes[-1] = merge(axes[-1], ref, mesh)
    else:
        axes.append(ref)


def total_size(refs: Sequence[AxisRef], mesh: Mesh) -> int:
    size = 1
    for ref in refs:
        size *= ref.size(mesh)
    return size
