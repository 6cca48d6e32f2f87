"""Every reshard the pipeline leaves, with its cause: the two shardings that met, the annotations behind each, and why
propagation did not make them agree (conflicts.py); and the bytes each device sends for it (reshard_cost.py).

A reshard (`sdy.reshard`) comes from a sharding constraint (the user asked
for it), from export's explicit reshards, where an op's operand arrives
sharded otherwise than the op computes it, or before an op without a
sharding rule (a return, a loop carry, a host callback). All-reduces export
adds for partial sums are explained in partial_sums.py.
"""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.dialects.sdy import Mesh, TensorSharding
from pysdy.explanation.annotations import annotation_of
from pysdy.explanation.chains import axis_chain
from pysdy.explanation.conflicts import disagreement, priority_note
from pysdy.explanation.model import Annotation, Reshard
from pysdy.explanation.partial_sums import explain_all_reduce
from pysdy.explanation.printing import sharding_text
from pysdy.explanation.recorded_module import FuncResult, RecordedModule, ValueKey
from pysdy.explanation.reshard_cost import reshard_cost
from pysdy.passes.common.ir_walk import nested_ops


def find_reshards(recorded: RecordedModule, meshes: dict[str, Mesh]) -> list[Reshard]:
    """Every reshard and all-reduce of the recorded module, the costliest first."""
    found = []
    for op in nested_ops(recorded.module):
        if op.name == "sdy.reshard" and _changes_sharding(recorded, op):
            found.append(_explain(recorded, op, meshes))
        elif op.name == "sdy.all_reduce":
            found.append(explain_all_reduce(recorded, op, meshes))
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


def _explain(recorded: RecordedModule, op: ir.Operation, meshes: dict[str, Mesh]) -> Reshard:
    value = op.operands[0]
    needed = TensorSharding.from_attr(op.attributes["sharding"])
    current = recorded.sharding(value)
    mesh = meshes.get(needed.mesh) if isinstance(needed.mesh, str) else needed.mesh
    shape = list(ir.RankedTensorType(value.type).shape)
    collectives, sent = reshard_cost(current, needed, mesh, shape, value.type)
    current_annotations = _annotations_of_axes(recorded, [value], current)
    served, operand_number = _served_op(op)
    constraint = _constraint_behind(op)
    if constraint is not None and (served is None or operand_number < 0):
        own = annotation_of(recorded, "self", constraint.results[0])
        return Reshard(
            recorded.name(value), "sdy.sharding_constraint", recorded.op_location(constraint), sharding_text(current),
            str(op.attributes["sharding"]), current_annotations, () if own is None else (own,),
            "a sharding constraint (with_sharding_constraint) asks for this sharding here", collectives, sent,
        )  # fmt: skip
    if served is None:
        return _explain_without_rule(recorded, op, value, current, needed, current_annotations, collectives, sent, meshes)
    others = [v for v in list(served.operands) + list(served.results) if v != op.results[0]]
    needed_annotations = _annotations_of_axes(recorded, others, needed)
    reason = disagreement(recorded, served, operand_number, current, needed, mesh) if mesh else ""
    reason += priority_note(current_annotations, needed_annotations)
    return Reshard(
        recorded.name(value), served.name, recorded.op_location(served), sharding_text(current),
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
        recorded.name(value), user_name, location or recorded.op_location(op), sharding_text(current), needed_text,
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


