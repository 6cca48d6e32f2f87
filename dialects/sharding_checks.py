"""Validity checks for sdy meshes, tensor shardings and op sharding rules, with the sdy verifier's messages.

Every check returns the first problem the sdy verifier would report, as the
text it reports after its location prefix (for a function argument the
verifier prints `'func.func' op arg 0 - ` before it), or None when the value is
valid. The checks run in the verifier's order, so the first message is the
same one jaxlib's verifier gives.
"""

from __future__ import annotations

from collections.abc import Sequence

from pysdy import versions
from pysdy.dialects.sdy import (
    AxisRef,
    Mesh,
    OpShardingRule,
    TensorMapping,
    TensorSharding,
    TensorShardingPerValue,
)

Shape = Sequence[int]

# --------------------------------------------------------------------------
# Meshes
# --------------------------------------------------------------------------


def verify_mesh(mesh: Mesh) -> str | None:
    """The first reason `mesh` is not a valid `#sdy.mesh`, or None."""
    for axis in mesh.axes:
        if axis.size < 1:
            return f"axis size must be at least 1, got: {axis.size}"
    for device_id in mesh.device_ids:
        if device_id < 0:
            return f"device id must be non-negative, got: {device_id}"
    if not mesh.axes and len(mesh.device_ids) > 1:
        return "axes is empty and device_ids has more than one element"
    seen_names: set[str] = set()
    for axis in mesh.axes:
        if axis.name in seen_names:
            return f'duplicate axis name: "{axis.name}"'
        seen_names.add(axis.name)
    if not mesh.device_ids:
        return None
    if mesh.total_size != len(mesh.device_ids):
        return (
            "total product of axis sizes must match total number of device ids, "
            f"got: {mesh.total_size} != {len(mesh.device_ids)}"
        )
    sorted_ids = sorted(mesh.device_ids)
    if mesh.axes and sorted_ids != list(range(len(sorted_ids))):
        return f"sorted device ids must be iota(product(axes)), got: {', '.join(map(str, sorted_ids))}"
    return None


# --------------------------------------------------------------------------
# Tensor shardings
# --------------------------------------------------------------------------


def verify_tensor_sharding(
    sharding: TensorSharding,
    shape: Shape,
    mesh: Mesh | None,
    bound_manual_axes: Sequence[str] = (),
) -> str | None:
    """The first reason `sharding` is not valid for a ranked tensor of `shape`, or None.

    `mesh` is the mesh `sharding.mesh` names (None when no mesh has that name);
    it is not used when the sharding inlines its mesh. The mesh itself is
    assumed valid (see `verify_mesh`). `bound_manual_axes` are the axes made
    manual by the `sdy.manual_computation` ops around the sharded value.
    """
    if isinstance(sharding.mesh, Mesh):
        mesh = sharding.mesh
    elif mesh is None:
        return f"unknown mesh: @{sharding.mesh}"

    if mesh.is_maximal:
        if sharding.rank != 0 or sharding.replicated or sharding.unreduced:
            kind = "single-device" if versions.installed().verifier_says_single_device_sharding else "maximal"
            return f"a {kind} sharding can only have a sharding with rank 0 and no replicated or unreduced axes."
        return None
    if sharding.rank != len(shape):
        return f"sharding doesn't match tensor rank: {sharding.rank} != {len(shape)}"

    axis_lists = _AxisListChecker(mesh)
    for dim, dim_sharding in enumerate(sharding.dims):
        if dim_sharding.priority is not None:
            if dim_sharding.priority < 0:
                return f"dim {dim} has a negative priority"
            if dim_sharding.is_closed and not dim_sharding.axes:
                return f"dim {dim} is empty and closed but has a priority"
        if error := axis_lists.add(dim_sharding.axes):
            return error
    for kind, axes in (("replicated", sharding.replicated), ("unreduced", sharding.unreduced)):
        if any(_mesh_order_less(mesh, b, a) for a, b in zip(axes, axes[1:])):
            return f"{kind} axes are not ordered w.r.t. mesh"
        if error := axis_lists.add(axes):
            return error
    if error := axis_lists.verify_sub_axes():
        return error

    for axis in (*(a for d in sharding.dims for a in d.axes), *sharding.replicated, *sharding.unreduced):
        if axis.name in bound_manual_axes:
            return (
                f'operates on axis "{axis.name}" which is already bound by a parent '
                "sdy.manual_computation op"
            )
    return None


def verify_sharding_per_value(
    shardings: TensorShardingPerValue, shapes: Sequence[Shape], meshes: dict[str, Mesh]
) -> str | None:
    """The first reason `shardings` is not valid for values of `shapes`, or None.

    `meshes` maps mesh symbol names to meshes. The message of a value's sharding
    is prefixed like the verifier's: `- ` for a single value, `N - ` otherwise.
    """
    if len(shardings.shardings) != len(shapes):
        return (
            f"shardings don't match number of values: {len(shardings.shardings)} shardings "
            f"vs {len(shapes)} values"
        )
    for index, (sharding, shape) in enumerate(zip(shardings.shardings, shapes)):
        mesh = None if isinstance(sharding.mesh, Mesh) else meshes.get(sharding.mesh)
        if error := verify_tensor_sharding(sharding, shape, mesh):
            return f"- {error}" if len(shapes) == 1 else f"{index} - {error}"
    return None


def verify_manual_computation_value(
    sharding: TensorSharding,
    global_shape: Shape,
    mesh: Mesh,
    manual_axes: Sequence[str],
    value_kind: str,
    index: int,
) -> str | None:
    """The manual-axes checks `sdy.manual_computation` makes on one in/out sharding.

    Manual axes must come before free axes in every dimension, and must divide
    the (static) dimension sizes. The verifier makes these checks once the
    sharding itself passed `verify_tensor_sharding`. `value_kind` is "operand"
    or "result", and `index` the value's position. Dynamic dimensions (negative
    sizes) are skipped.
    """
    for dim, dim_sharding in enumerate(sharding.dims):
        for previous, axis in zip(dim_sharding.axes, dim_sharding.axes[1:]):
            if axis.name in manual_axes and previous.name not in manual_axes:
                return (
                    f"{value_kind} sharding at index {index} must have all manual axes come "
                    f"before free axes in its dimension sharding at index {dim}. Saw manual "
                    f"axis {axis} after free axis {previous}"
                )
    for size, dim_sharding in zip(global_shape, sharding.dims):
        manual_size = 1
        for axis in dim_sharding.axes:
            if axis.name in manual_axes:
                manual_size *= axis.size(mesh)
        if size >= 0 and size % manual_size != 0:
            return (
                f"{value_kind} dimension size {size} is not divisible by the manual axes "
                f"size {manual_size}"
            )
    return None


def _mesh_order_less(mesh: Mesh, lhs: AxisRef, rhs: AxisRef) -> bool:
    """Whether `lhs` sorts before `rhs` in the verifier's mesh order.

    Different names sort by their mesh position. Sub-axes of one name sort by
    (pre-size, size); a full axis sorts after its sub-axes of pre-size 1 and
    before those of pre-size above 1 (the rest tie with it).

    Two names that are both missing from the mesh have no order (the sharding
    is invalid either way; which error the C++ verifier reports first for them
    is unspecified), so neither sorts before the other.
    """
    if lhs.name == rhs.name:
        if lhs.sub_axis is None:
            return rhs.sub_axis is not None and rhs.sub_axis.pre_size > 1
        if rhs.sub_axis is None:
            return lhs.sub_axis.pre_size == 1
        return (lhs.sub_axis.pre_size, lhs.sub_axis.size) < (rhs.sub_axis.pre_size, rhs.sub_axis.size)
    for axis in mesh.axes:
        if axis.name == lhs.name:
            return True
        if axis.name == rhs.name:
            return False
    return False


class _AxisListChecker:
    """Checks the axis lists of one sharding in turn, remembering the axes seen so far."""

    def __init__(self, mesh: Mesh):
        self.axis_sizes = {axis.name: axis.size for axis in mesh.axes}
        self.seen: set[AxisRef] = set()
        self.sub_axes_by_name: dict[str, list[AxisRef]] = {}

    def add(self, axes: Sequence[AxisRef]) -> str | None:
        """Checks one list: known names, no axis used twice, no mergeable neighbours."""
        previous: AxisRef | None = None
        for axis in axes:
            if axis.name not in self.axis_sizes:
                return f'unknown axis name: "{axis.name}"'
            if axis in self.seen:
                return f"duplicate axis ref: {axis}"
            self.seen.add(axis)
            if axis.sub_axis is not None:
                self.sub_axes_by_name.setdefault(axis.name, []).append(axis)
                if (
                    previous is not None
                    and previous.sub_axis is not None
                    and previous.name == axis.name
                    and previous.sub_axis.next_pre_size == axis.sub_axis.pre_size
                ):
                    return f"two consecutive sub-axes can be merged: {previous}, {axis}"
            previous = axis
        return None

    def verify_sub_axes(self) -> str | None:
        """Checks every sub-axis seen, one axis name at a time, in first-use order.

        When sub-axes of several names are invalid, the C++ verifier reports
        the first name in its hash map's order, which is not specified; pysdy
        reports the first name used.
        """
        for name in self.sub_axes_by_name:
            if error := self._verify_sub_axes_of(name):
                return error
        return None

    def _verify_sub_axes_of(self, name: str) -> str | None:
        if AxisRef(name) in self.seen:
            return f'both sub-axis and full-axis are used for axis name: "{name}"'
        axis_size = self.axis_sizes[name]
        sub_axes = sorted(self.sub_axes_by_name[name], key=lambda a: (a.sub_axis.pre_size, a.sub_axis.size))
        previous: AxisRef | None = None
        for axis in sub_axes:
            info = axis.sub_axis
            if info.pre_size < 1:
                return f"sub-axis pre-size must be at least 1: {axis}"
            if info.size <= 1:
                return f"sub-axis sizes must be greater than 1: {axis}"
            if axis_size % info.next_pre_size != 0:
                return (
                    f"sub-axis next pre-size {info.next_pre_size} doesn't divide the size of "
                    f"the full axis {axis_size}: {axis}"
                )
            if info.size == axis_size:
                return f"sub-axis size is equal to the full axis size: {axis}"
            if previous is not None and previous.sub_axis.next_pre_size > info.pre_size:
                return f"overlapping sub-axes: {previous}, {axis}"
            previous = axis
        return None


# --------------------------------------------------------------------------
# Op sharding rules
# --------------------------------------------------------------------------


def factor_symbol(index: int) -> str:
    """The symbol a factor prints as: i, j, ..., z, then z_1, z_2, ..."""
    last_letter = ord("z") - ord("i")
    if index <= last_letter:
        return chr(ord("i") + index)
    return f"z_{index - last_letter}"


def verify_op_sharding_rule(
    rule: OpShardingRule, operand_shapes: Sequence[Shape], result_shapes: Sequence[Shape]
) -> str | None:
    """The first reason `rule` is not valid for an op with these static shapes, or None.

    The message is what the verifier prints after `'<op name>' op `.
    """
    used_factors: set[int] = set()
    for kind, shapes, mappings in (
        ("operand", operand_shapes, rule.operand_mappings),
        ("result", result_shapes, rule.result_mappings),
    ):
        if error := _verify_tensor_mappings(rule, kind, shapes, mappings, used_factors):
            return error
    for factor in range(rule.num_factors):
        if factor not in used_factors:
            return (
                f"has factor {factor_symbol(factor)}={rule.factor_sizes[factor]} that isn't "
                "used in operand and result mappings"
            )

    special_sets = (rule.reduction_factors, rule.need_replication_factors, rule.permutation_factors)
    for factors in special_sets:
        if error := _verify_factor_set(factors, rule.num_factors):
            return error
    if len(set().union(*special_sets)) != sum(map(len, special_sets)):
        return (
            "a factor can only be in one of the reduction, need replication, or "
            "permutation factor sets"
        )
    if error := _verify_factor_set(rule.blocked_propagation_factors, rule.num_factors):
        return error
    result_factors = {f for mapping in rule.result_mappings for factors in mapping for f in factors}
    if not result_factors.isdisjoint(rule.reduction_factors):
        return "reduction factor cannot be in result mappings"
    return None


def _verify_tensor_mappings(
    rule: OpShardingRule,
    kind: str,
    shapes: Sequence[Shape],
    mappings: Sequence[TensorMapping],
    used_factors: set[int],
) -> str | None:
    """Checks the mappings of the operands or of the results, noting the factors they use."""
    if len(shapes) != len(mappings):
        return f"number of {kind}s and mappings must match: {len(shapes)} != {len(mappings)}"
    if not mappings:
        return (
            f"number of {kind}s mappings cannot be 0. Op sharding rules can only be "
            "defined on operations with at least one operand and result."
        )
    for index, (shape, mapping) in enumerate(zip(shapes, mappings)):
        prefix = f"{kind} - " if len(shapes) == 1 else f"{kind} {index} - "
        if len(mapping) != len(shape):
            return f"{prefix}mapping rank must match: {len(mapping)} != {len(shape)}"
        factors_of_value: set[int] = set()
        for factors in mapping:
            if not factors:
                return f"{prefix}dim mapping must have at least one factor"
            for factor in factors:
                if not 0 <= factor < rule.num_factors:
                    return (
                        f"{prefix}expecting factor indices to be within 0<=...<num_factors; "
                        f"received: {factor}, num_factors: {rule.num_factors}"
                    )
                if factor in factors_of_value:
                    return f"{prefix}cannot reuse factors for the same tensor value"
                if rule.factor_sizes[factor] == 1 and len(factors) > 1:
                    return f"{prefix}dim mapping can't have a factor of size 1 if there are multiple factors"
                factors_of_value.add(factor)
                used_factors.add(factor)
    return None


def _verify_factor_set(factors: Sequence[int], num_factors: int) -> str | None:
    """Checks a special factor set is sorted, unique and within range."""
    if not factors:
        return None
    if list(factors) != sorted(factors):
        return "indices of special factors must be sorted"
    if len(set(factors)) != len(factors):
        return "indices of special factors must be unique"
    if factors[0] < 0:
        return "index must be non-negative"
    if factors[-1] >= num_factors:
        return f"index must be less than {num_factors}, got: {factors[-1]}"
    return None
