"""An all-reduce export adds after an op whose reduction dimensions are sharded: each device holds a partial result, and
the all-reduce sums them; its cause is the sharded reduction dimensions and the annotations that sharded them."""

from __future__ import annotations

import math

from jaxlib.mlir import ir

from pysdy.dialects.sdy import AxisRef, Mesh, TensorSharding
from pysdy.explanation.chains import axis_chain
from pysdy.explanation.model import Reshard
from pysdy.explanation.printing import axes_text
from pysdy.explanation.recorded_module import RecordedModule
from pysdy.explanation.sizes import element_bytes, local_bytes


def explain_all_reduce(recorded: RecordedModule, op: ir.Operation, meshes: dict[str, Mesh]) -> Reshard:
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
                contracted.append(f"operand {index} dim {dim} on {axes_text(dim_axes)}")
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
