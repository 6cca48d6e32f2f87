"""Every reshard the pipeline leaves, with its cause: the two shardings that met, the annotations behind each, and why
propagation did not make them agree; and the bytes each device sends for it.

A reshard (`sdy.reshard`) comes from a sharding constraint (the user asked
for it) or from export's explicit reshards, where an op's operand arrives
sharded otherwise than the op computes it. An `sdy.all_reduce` export adds
after an op whose contracted (reduction) dimensions are sharded: each device
holds a partial result, which the all-reduce sums. For those the cause is read off the op's sharding
rule at the propagation's fixed point, with the strategy's own tests: per
factor of the operand whose axes differ, which tensors of the op hold which
axes, whether they disagree on the factor's major axis (Shardy's propagation
passes only axes all tensors of an op agree on), whether an axis already
shards another factor of the operand, or whether the factor must stay
replicated.
"""

from __future__ import annotations

import math
import re

from jaxlib.mlir import ir

from pysdy.dialects.sdy import AxisRef, FactorKind, Mesh, TensorSharding
from pysdy.explanation.annotations import annotation_of
from pysdy.explanation.chains import axis_chain
from pysdy.explanation.model import Annotation, Reshard
from pysdy.explanation.recorded_module import FuncResult, RecordedModule, ValueKey
from pysdy.explanation.sizes import element_bytes, local_bytes
from pysdy.passes.export.collective_plan import (
    AllGather,
    AllSlice,
    AllToAll,
    IncompleteReshardError,
    plan_collectives,
)
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.propagation.factor_propagation import BasicFactorPropagation, PropagationDirection
from pysdy.passes.propagation.sharding_projection import ShardingProjection, build_tensor_factor_shardings


def find_reshards(recorded: RecordedModule, meshes: dict[str, Mesh]) -> list[Reshard]:
    """Every reshard and all-reduce of the recorded module, the costliest first."""
    found = []
    for op in nested_ops(recorded.module):
        if op.name == "sdy.reshard" and _changes_sharding(recorded, op):
            found.append(_explain(recorded, op, meshes))
        elif op.name == "sdy.all_reduce":
            found.append(_explain_all_reduce(recorded, op, meshes))
    return sorted(found, key=lambda reshard: -reshard.bytes_per_device)


def _changes_sharding(recorded: RecordedModule, op: ir.Operation) -> bool:
    current = recorded.sharding(op.operands[0])
    needed = TensorSharding.from_attr(op.attributes["sharding"])
    return current is None or [d.axes for d in current.dims] != [d.axes for d in needed.dims]


def _constraint_behind(op: ir.Operation) -> ir.Operation | None:
    """The sharding constraint a chain of reshards ending at `op` starts from, if any."""
    while op.name == "sdy.reshard":
        if "sdy.sharding_origin_name" in op.attributes:
            return op
        producer = op.operands[0].owner
        if not isinstance(op.operands[0], ir.OpResult):
            return None
        op = producer.operation if hasattr(producer, "operation") else producer
    return None


def _explain_all_reduce(recorded: RecordedModule, op: ir.Operation, meshes: dict[str, Mesh]) -> Reshard:
    value = op.operands[0]
    needed = TensorSharding.from_attr(op.attributes["out_sharding"])
    mesh = meshes.get(needed.mesh) if isinstance(needed.mesh, str) else needed.mesh
    axes = str(op.attributes["reduction_axes"]).removeprefix("#sdy<axis_ref_list").removesuffix(">")
    producer = value.owner if isinstance(value, ir.OpResult) else None
    rule = None if producer is None else recorded.rule(producer)
    contracted, annotations = [], []
    if rule is not None:
        for index, operand in enumerate(producer.operands):
            sharding = recorded.sharding(operand)
            for dim, factors in enumerate(rule.operand_mappings[index]):
                if not any(f in rule.reduction_factors for f in factors) or sharding is None:
                    continue
                dim_axes = sharding.dims[dim].axes
                contracted.append(f"operand {index} dim {dim} on {_axes(dim_axes)}")
                for axis in dim_axes:
                    chain = axis_chain(recorded, operand, dim, str(axis))
                    if chain.annotation is not None and chain.annotation not in annotations:
                        annotations.append(chain.annotation)
    element_size = element_bytes(ir.RankedTensorType(value.type).element_type)
    shape = list(ir.RankedTensorType(value.type).shape)
    group = math.prod(_axis_size(axis, mesh) for axis in _reduction_axes(op))
    local = local_bytes(needed, mesh, shape, element_size) if mesh is not None else 0
    where = producer if producer is not None else op
    reason = (
        f"{where.name} sums over dimensions sharded across {axes} ({'; '.join(contracted) or 'its reduction factors'}): "
        f"each device holds a partial result, and the all-reduce adds them up across {axes}"
    )
    return Reshard(
        recorded.name(value), where.name, recorded.op_location(where), f"partial sums over {axes}",
        str(op.attributes["out_sharding"]), tuple(annotations), (), reason, ("all-reduce",),
        2 * local * (group - 1) // group if group else 0,
    )  # fmt: skip


def _reduction_axes(op: ir.Operation) -> tuple[AxisRef, ...]:
    """The all-reduce's axes, read as one dimension of a sharding (`#sdy<axis_ref_list{...}>` has no binding)."""
    text = str(op.attributes["reduction_axes"])
    listed = text[text.index("{") : -1]
    return TensorSharding.from_attr(ir.Attribute.parse(f"#sdy.sharding<@m, [{listed}]>")).dims[0].axes


def _axis_size(axis, mesh: Mesh | None) -> int:
    return 1 if mesh is None else axis.size(mesh)


def _explain(recorded: RecordedModule, op: ir.Operation, meshes: dict[str, Mesh]) -> Reshard:
    value = op.operands[0]
    needed = TensorSharding.from_attr(op.attributes["sharding"])
    current = recorded.sharding(value)
    mesh = meshes.get(needed.mesh) if isinstance(needed.mesh, str) else needed.mesh
    shape = list(ir.RankedTensorType(value.type).shape)
    collectives, sent = _cost(current, needed, mesh, shape, value.type)
    current_annotations = _annotations_of_axes(recorded, [value], current)
    served, operand_number = _served_op(op)
    constraint = _constraint_behind(op)
    if constraint is not None and (served is None or operand_number < 0):
        own = annotation_of(recorded, "self", constraint.results[0])
        return Reshard(
            recorded.name(value), "sdy.sharding_constraint", recorded.op_location(constraint), _text(current),
            str(op.attributes["sharding"]), current_annotations, () if own is None else (own,),
            "a sharding constraint (with_sharding_constraint) asks for this sharding here", collectives, sent,
        )  # fmt: skip
    if served is None:
        return _explain_without_rule(recorded, op, value, current, needed, current_annotations, collectives, sent, meshes)
    others = [v for v in list(served.operands) + list(served.results) if v != op.results[0]]
    needed_annotations = _annotations_of_axes(recorded, others, needed)
    reason = _reason(recorded, served, operand_number, current, needed, mesh) if mesh else ""
    reason += _priorities(current_annotations, needed_annotations)
    return Reshard(
        recorded.name(value), served.name, recorded.op_location(served), _text(current),
        str(op.attributes["sharding"]), current_annotations, needed_annotations, reason, collectives, sent,
    )  # fmt: skip


def _explain_without_rule(
    recorded: RecordedModule, op: ir.Operation, value, current, needed: TensorSharding, current_annotations,
    collectives, sent, meshes: dict[str, Mesh],
) -> Reshard:  # fmt: skip
    """A reshard for an op without a sharding rule: a return (of the function, a loop body, a branch or a
    shard_map body), a host callback on another mesh, or another reshard's first step."""
    user = _final_user(op)
    needed_text = str(op.attributes["sharding"])
    needed_annotations: tuple[Annotation, ...] = ()
    if user is None:
        user_name, reason = op.name, f"the value's users take it as {needed_text}"
    elif user.name == "func.return":
        index = next(u.operand_number for u in _result_of_chain(op).uses if _owner(u) == user)
        function = ir.StringAttr(user.parent.attributes["sym_name"]).value
        result = annotation_of(recorded, "self", FuncResult(function, index))
        needed_annotations = () if result is None else (result,)
        user_name = "func.return"
        reason = f"@{function} returns it as result {index}, whose sharding is {needed_text}"
    elif user.parent is not None and user == _last_op(user):
        parent = user.parent
        user_name = parent.name
        reason = {
            "stablehlo.while": f"the loop carries it from one iteration to the next as {needed_text}",
            "sdy.manual_computation": f"the shard_map body returns it, and its out_specs ask for {needed_text}",
        }.get(parent.name, f"{parent.name} returns it as {needed_text} from every region")
    else:
        user_name = user.name
        moved = isinstance(needed.mesh, str) and current is not None and current.mesh != needed.mesh
        where = f" on mesh @{needed.mesh}" if moved else ""
        reason = f"{user.name} (an op without a sharding rule) takes it as {needed_text}{where}"
        if moved and needed.mesh in meshes and meshes[needed.mesh].is_maximal:
            reason += ": one device runs it (a host callback, or an op JAX pinned to a device)"
    location = recorded.op_location(user) if user is not None else None
    return Reshard(
        recorded.name(value), user_name, location or recorded.op_location(op), _text(current), needed_text,
        current_annotations, needed_annotations, reason, collectives, sent,
    )  # fmt: skip


def _owner(use) -> ir.Operation:
    return use.owner.operation if hasattr(use.owner, "operation") else use.owner


def _result_of_chain(op: ir.Operation) -> ir.Value:
    """The last result of the chain of reshards that starts at `op`."""
    result = op.results[0]
    while True:
        users = [_owner(u) for u in result.uses]
        if len(users) != 1 or users[0].name != "sdy.reshard":
            return result
        result = users[0].results[0]


def _final_user(op: ir.Operation) -> ir.Operation | None:
    """The first op past the chain of reshards starting at `op` that uses its result."""
    users = [_owner(u) for u in _result_of_chain(op).uses]
    return users[0] if users else None


def _last_op(op: ir.Operation) -> ir.Operation:
    return list(op.block.operations)[-1].operation


_PRIORITY = re.compile(r"\}p(\d+)")


def _priorities(current: tuple[Annotation, ...], needed: tuple[Annotation, ...]) -> str:
    """Why the needed side won, when user priorities decided it: user-priority propagation propagates each
    priority's shardings, p0 first, before the next."""
    def best(annotations):
        found = [int(p) for a in annotations for p in _PRIORITY.findall(a.sharding)]
        return min(found) if found else None

    have, want = best(current), best(needed)
    if want is None or (have is not None and have <= want):
        return ""
    loser = f"p{have}" if have is not None else "no priority"
    return f"; the needed side's annotation has priority p{want}, the other's {loser}: p{want} propagates first"


def _served_op(op: ir.Operation) -> tuple[ir.Operation | None, int]:
    """The op with a sharding rule whose operand the reshard (or the chain of reshards it starts) feeds: export
    reshards operands before the op that needs them; else the op with a rule whose result it reshards."""
    for use in _result_of_chain(op).uses:
        user = _owner(use)
        if "sdy.sharding_rule" in user.attributes:
            return user, use.operand_number
    producer = op.operands[0].owner
    if isinstance(producer, ir.Block) or not hasattr(producer, "attributes"):
        return None, -1
    producer = producer.operation if hasattr(producer, "operation") else producer
    return (producer, -1) if "sdy.sharding_rule" in producer.attributes else (None, -1)


def _reason(
    recorded: RecordedModule, op: ir.Operation, operand_number: int, current, needed: TensorSharding, mesh: Mesh
) -> str:
    rule = recorded.rule(op)
    if rule is None or operand_number < 0:
        return f"{op.name} computes its result as {_text(needed)}; the reshard brings the result to its users' sharding"
    operands = [_fitting(recorded.sharding(v), m) for v, m in zip(op.operands, rule.operand_mappings)]
    operands[operand_number] = _fitting(current, rule.operand_mappings[operand_number])
    results = [_fitting(recorded.sharding(v), m) for v, m in zip(op.results, rule.result_mappings)]
    fits = _fitting(needed, rule.operand_mappings[operand_number]) is not None
    if not fits or len(operands) != len(rule.operand_mappings) or len(results) != len(rule.result_mappings):
        return f"{op.name} computes operand {operand_number} as {_text(needed)}"
    projection = ShardingProjection.build(operands, results, rule, mesh)
    have_tensor = projection.operands[operand_number]
    want_tensor = build_tensor_factor_shardings(rule.operand_mappings[operand_number], needed, rule.factor_sizes, mesh)
    parts = []
    for dim, factors in enumerate(rule.operand_mappings[operand_number]):
        overflow = [a for f in factors for a in have_tensor.factor_index_to_sharding[f].overflow_axes]
        if overflow:
            parts.append(_overflow_reason(rule, operand_number, dim, factors, current, overflow, needed))
            continue
        for factor in factors:
            have = have_tensor.factor_index_to_sharding[factor].axis_refs
            want = want_tensor.factor_index_to_sharding[factor].axis_refs
            if list(have) == list(want):
                continue
            parts.append(_factor_reason(projection, rule, operand_number, dim, factor, have, want, mesh))
    return "; ".join(parts) or f"the operand's sharding differs from {_text(needed)} outside its dimensions"


def _overflow_reason(rule, operand_number, dim, factors, current, overflow, needed) -> str:
    """A dimension sharded on more axes than its factors can carry: a reshape splitting it into sizes the axes do
    not divide keeps only the axes (or parts) that fit the major factor."""
    sizes = " x ".join(str(rule.factor_sizes[f]) for f in factors)
    return (
        f"operand {operand_number} dim {dim} is sharded on {_axes(current.dims[dim].axes)}, but this op splits that "
        f"dimension into factors of sizes {sizes}, and {_axes(overflow)} does not divide them: the op can keep only "
        f"{_axes(needed.dims[dim].axes)} of it, and the rest is gathered"
    )


def _fitting(sharding: TensorSharding | None, mapping) -> TensorSharding | None:
    """The sharding if it has the rule's rank for its tensor (a token or a sharding on another mesh has not)."""
    return sharding if sharding is not None and sharding.rank == len(mapping) else None


def _factor_reason(projection, rule, operand_number, dim, factor, have, want, mesh) -> str:
    where = f"operand {operand_number} dim {dim}"
    holders = _holders(projection, factor, operand_number)
    held = ", ".join(f"{label} has {_axes(axes)}" for label, axes in holders) or "no other tensor is sharded along it"
    kind = rule.factor_kind(factor)
    if not want and kind is FactorKind.NEED_REPLICATION:
        return f"{where} is sharded on {_axes(have)} but this op needs that dimension whole (a factor it cannot shard)"
    for axis in want:
        if axis in have:
            continue
        fits = BasicFactorPropagation.compatible_prefix_no_conflicts_across_factors(
            axis, projection.operands[operand_number].factor_index_to_sharding, factor
        )
        if fits is None:
            return (
                f"{where} arrives as {_axes(have)}; the op computes it on {_axes(want)} ({held}), but axis {axis} "
                f"already shards another dimension of operand {operand_number}, so propagation could not move it there"
            )
    agreed = BasicFactorPropagation.compatible_major_axes(projection, factor, PropagationDirection.BOTH)
    if have and want and len(agreed) < min(len(have), len(want)):
        return (
            f"{where} arrives as {_axes(have)} while {held}: they disagree on the dimension's major axis, and "
            f"propagation passes on only the axes all of an op's tensors agree on, so the op computes it as {_axes(want)}"
        )
    if not have:
        return f"{where} arrives replicated while {held}; the op computes it on {_axes(want)}"
    return f"{where} arrives as {_axes(have)} while {held}; the op computes it on {_axes(want)}"


def _holders(projection: ShardingProjection, factor: int, operand_number: int) -> list[tuple[str, list]]:
    found = []
    for kind, tensors in (("operand", projection.operands), ("result", projection.results)):
        for index, tensor in enumerate(tensors):
            if kind == "operand" and index == operand_number:
                continue
            sharding = tensor.factor_index_to_sharding.get(factor)
            if sharding is not None and sharding.axis_refs:
                found.append((f"{kind} {index}", sharding.axis_refs))
    return found


def _annotations_of_axes(
    recorded: RecordedModule, values: list[ValueKey], sharding: TensorSharding | None
) -> tuple[Annotation, ...]:
    """The annotations behind the axes of `sharding`: per axis, the start of its chain in the first of `values`
    sharded on it."""
    if sharding is None:
        return ()
    found: list[Annotation] = []
    for axis in (a for dim in sharding.dims for a in dim.axes):
        for value in values:
            held = recorded.sharding(value)
            dims = [] if held is None else [d for d, dim in enumerate(held.dims) if any(a.name == axis.name for a in dim.axes)]
            if not dims:
                continue
            annotation = axis_chain(recorded, value, dims[0], str(axis)).annotation
            if annotation is not None and annotation not in found:
                found.append(annotation)
            break
    return tuple(found)


def _cost(current, needed: TensorSharding, mesh: Mesh | None, shape: list[int], type_: ir.Type) -> tuple[tuple[str, ...], int]:
    """The collectives the reshard becomes and the bytes each device sends for them."""
    if mesh is None or current is None or current.mesh != needed.mesh or current.rank != needed.rank:
        return ("(between meshes)",) if current is not None and current.mesh != needed.mesh else (), 0
    element_size = element_bytes(ir.RankedTensorType(type_).element_type)
    try:
        plan = plan_collectives(current, needed, needed.mesh if isinstance(needed.mesh, str) else "", mesh, shape)
    except (IncompleteReshardError, KeyError, ValueError):
        return ("(not planned)",), 0
    names, sent, before = [], 0, current
    for collective in plan:
        after = collective.out_sharding
        local_before = local_bytes(before, mesh, shape, element_size)
        local_after = local_bytes(after, mesh, shape, element_size)
        if isinstance(collective, AllGather):
            names.append("all-gather")
            sent += max(local_after - local_before, 0)
        elif isinstance(collective, AllToAll):
            group = math.prod(axis.size(mesh) for axis in collective.axes)
            names.append("all-to-all")
            sent += local_before * (group - 1) // group
        elif isinstance(collective, AllSlice):
            names.append("all-slice")
        else:
            names.append("collective-permute")
            sent += local_before
        before = after
    return tuple(names), sent


def _axes(axes) -> str:
    return "{" + ", ".join(str(axis) for axis in axes) + "}" if axes else "nothing"


def _text(sharding: TensorSharding | None) -> str:
    return "(no sharding)" if sharding is None else str(sharding.to_attr())
