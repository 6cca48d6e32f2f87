"""`xla-sdy-stablehlo-export-manual-reduction-collectives`: reductions over unreduced axes as fully manual computations
of StableHLO collectives, before the rest of the export, as XLA does it.

In XLA's order:

1. An `sdy.constant` with unreduced axes loses them and is followed by an
   `sdy.replicated_to_unreduced` of those axes, which its users take instead.
2. Unreduced axes of a transpose, reshape or copy result move back onto its
   input (when the input is not sharded along them), last op first, so the
   partitioner sees where the partial values come from.
3. Each `sdy.all_reduce` and `sdy.reduce_scatter` of an operand with
   unreduced axes, and each `sdy.sharded_to_unreduced` and
   `sdy.replicated_to_unreduced`, in walk order, becomes a fully manual
   computation (fully_manual_collectives.py) of the operand with its
   sharding (for a reduce-scatter, unreduced along the scattered axes only,
   whatever else it is unreduced along); channel ids continue after the
   greatest one the module has.

Where XLA's export aborts (or crashes) on an op, and where the values it
would compute are wrong, pysdy refuses the op with an error naming the
reason. Wrong values: a replicated-to-unreduced move on a mesh whose device
ids make XLA's partition-id reading keep the value on no device, or on
several, of a group; a sharded-to-unreduced move of axes of different sizes
from one dimension, whose offsets XLA computes with the wrong sizes.
"""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from pysdy import versions
from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.common.ir_walk import nested_ops, nested_ops_named
from pysdy.passes.common.collective_attrs import axis_list, axis_lists, reduction
from pysdy.passes.common.value_shardings import get_sharding, set_sharding
from pysdy.passes.common.values import rank
from pysdy.passes.diagnostics import emit_warning
from pysdy.passes.export.reshard_ir import MeshTable, axis_list_attr, sort_and_merge_axes
from pysdy.passes.gspmd.fully_manual_collectives import (
    Collective,
    export_collective,
    keeps_one_device_per_group,
    offsets_read_right,
)
from pysdy.passes.gspmd.reduction_identities import identity_refusal
from pysdy.passes.propagation.axis_refs import overlaps
from pysdy.passes.registry import MODULE, Pass, PassFailure, register_pass

_DATA_PRESERVING = ("stablehlo.transpose", "stablehlo.reshape", "mhlo.copy")
_REDUCTIONS = ("sdy.all_reduce", "sdy.reduce_scatter")
_TO_UNREDUCED = ("sdy.sharded_to_unreduced", "sdy.replicated_to_unreduced")
# Each op's attribute with its axes, and whether it holds one axis list per dimension.
_AXES = {
    "sdy.all_reduce": ("reduction_axes", False),
    "sdy.reduce_scatter": ("reduce_scatter_axes", True),
    "sdy.sharded_to_unreduced": ("axes", True),
    "sdy.replicated_to_unreduced": ("axes", False),
}


# --------------------------------------------------------------------------
# Constants with unreduced axes
# --------------------------------------------------------------------------


def _split_unreduced_constant(constant: ir.Operation) -> None:
    """Makes the constant replicated along its unreduced axes and moves them to unreduced after it."""
    if "sdy.sharding" not in constant.attributes:
        return
    shardings = TensorShardingPerValue.from_attr(constant.attributes["sdy.sharding"]).shardings
    if not shardings or not shardings[0].unreduced:
        return
    sharding = shardings[0]
    constant.attributes["sdy.sharding"] = TensorShardingPerValue(
        (dataclasses.replace(sharding, unreduced=()),)
    ).to_attr()
    value = constant.results[0]
    uses = [(use.owner, use.operand_number) for use in value.uses]
    with ir.InsertionPoint.after(constant), constant.location:
        moved = ir.Operation.create(
            "sdy.replicated_to_unreduced",
            results=[value.type],
            operands=[value],
            attributes={"axes": axis_list_attr(sharding.unreduced), "out_sharding": sharding.to_attr()},
        ).results[0]
    for user, index in uses:
        user.operands[index] = moved


# --------------------------------------------------------------------------
# Unreduced axes back through data-preserving ops
# --------------------------------------------------------------------------


def _reverse_post_order(block: ir.Block, visit) -> None:
    """MLIR's post-order walk with the reverse iterator: each block's ops last to first, regions before their op."""
    for child in reversed(list(block.operations)):
        op = child.operation
        for region in reversed(list(op.regions)):
            for nested in reversed(list(region.blocks)):
                _reverse_post_order(nested, visit)
        visit(op)


def _sync_unreduced_axes(op: ir.Operation) -> None:
    """Gives the op's input the unreduced axes of its result."""
    if op.name not in _DATA_PRESERVING:
        return
    source = op.operands[0]
    out = get_sharding(op.results[0])
    if not isinstance(source, ir.OpResult) or out is None or not out.unreduced:
        return
    current = get_sharding(source) or TensorSharding.fully_closed(out.mesh, rank(source))
    if current.unreduced == out.unreduced:
        return
    placed = [ref for dim in current.dims for ref in dim.axes] + list(current.replicated)
    if any(overlaps(ref, unreduced) for ref in placed for unreduced in out.unreduced):
        emit_warning(
            op.location,
            f"{op.name} has unreduced axes, but input is sharded along one of those axes, this can lead "
            "to undefined behavior",
        )
        return
    set_sharding(source, dataclasses.replace(current, unreduced=out.unreduced))


# --------------------------------------------------------------------------
# The collectives
# --------------------------------------------------------------------------


def _axes(op: ir.Operation):
    name, per_dim = _AXES[op.name]
    return axis_lists(op, name) if per_dim else axis_list(op, name)


def _reduction(op: ir.Operation) -> str:
    return "sum" if op.name in _TO_UNREDUCED else reduction(op)


def _to_export(op: ir.Operation, meshes: MeshTable) -> Collective | None:
    """The collective as XLA exports it, None for a reduction of an operand without unreduced axes (kept)."""
    in_sharding = get_sharding(op.operands[0])
    if op.name in _REDUCTIONS and (in_sharding is None or not in_sharding.unreduced):
        return None
    out_sharding = TensorSharding.from_attr(op.attributes["out_sharding"])
    mesh = meshes.of(out_sharding)
    axes = _axes(op)
    if op.name == "sdy.reduce_scatter":
        # XLA's export takes the operand as unreduced along the scattered axes only.
        scattered = sort_and_merge_axes([ref for dim in axes for ref in dim], mesh)
        in_sharding = dataclasses.replace(in_sharding, unreduced=tuple(scattered))
    return Collective(op, in_sharding, out_sharding, mesh, _reduction(op), axes)


def _refusal(collective: Collective) -> str | None:
    """Why pysdy does not export the collective as XLA would; None when it does."""
    op = collective.op
    if not op.operands[0].type.has_static_shape:
        return f"of a dynamically shaped operand ({op.operands[0].type})"
    padded = collective.padded_shape() != collective.shape
    if padded and not versions.installed().xla_export_pads_non_divisible_unreduced_collectives:
        return "of a dimension its shardings do not divide: XLA's export aborts on it (it pads from jax 0.11)"
    if op.name in _TO_UNREDUCED:
        moved = collective.axes if op.name == "sdy.replicated_to_unreduced" else [r for d in collective.axes for r in d]
        sub_axis = next((ref for ref in moved if ref.sub_axis is not None), None)
        if sub_axis is not None:
            return f"of sub-axis {sub_axis}: XLA's export aborts on sub-axes there"
        if collective.out_sharding.reduction != "sum":
            return f"to {collective.out_sharding.reduction}-reduced unreduced axes: XLA's export aborts on them"
        if op.name == "sdy.sharded_to_unreduced" and collective.mesh.device_ids:
            return "on a mesh with device ids: XLA's export aborts on it"
        if op.name == "sdy.sharded_to_unreduced" and not offsets_read_right(collective):
            return (
                "of axes of different sizes from one dimension: XLA's export multiplies the offset so far by the size "
                "of the axis before the next one instead of the next one's, which misplaces the parts (wrong values)"
            )
        if not keeps_one_device_per_group(collective.axes, collective.mesh):
            return (
                "on this mesh's device ids: XLA's export reads each device's coordinates from its partition id as "
                "if the mesh had none, which keeps the value on no device, or on several, of some group (wrong "
                "values)"
            )
        return identity_refusal(collective.element_type, "sum")
    if padded:
        return identity_refusal(collective.element_type, collective.reduction)
    return None


def _next_channel_id(module: ir.Operation) -> int:
    """One more than the greatest `channel_handle` of a StableHLO op in the module (1 if there is none)."""
    greatest = 0
    for op in nested_ops(module):
        if "channel_handle" in op.attributes:
            handle = op.attributes["channel_handle"]
            if stablehlo.ChannelHandle.isinstance(handle):
                greatest = max(greatest, stablehlo.ChannelHandle(handle).handle)
    return greatest + 1


@register_pass
@dataclasses.dataclass(frozen=True)
class StablehloExportManualReductionCollectivesPass(Pass):
    argument = "xla-sdy-stablehlo-export-manual-reduction-collectives"
    summary = (
        "Exports `sdy.all_reduce`, `sdy.reduce_scatter`, `sdy.sharded_to_unreduced` and "
        "`sdy.replicated_to_unreduced` that originate from user-defined shardings with unreduced axes. The "
        "exported ops are inside a full manual `sdy.manual_computation`."
    )
    anchor = MODULE
    # A collective inside a manual computation becomes a nested one that binds its axes again, which the verifier
    # rejects, as it rejects XLA's.
    leaves_invalid_ir = True

    def run(self, op: ir.Operation) -> None:
        for constant in nested_ops(op, name="sdy.constant"):
            _split_unreduced_constant(constant)
        _reverse_post_order(op.regions[0].blocks[0], _sync_unreduced_axes)
        meshes = MeshTable(op)
        collectives = [
            collective
            for nested in nested_ops_named(op, _REDUCTIONS + _TO_UNREDUCED)
            if (collective := _to_export(nested, meshes)) is not None
        ]
        refused = [(c.op, reason) for c in collectives if (reason := _refusal(c)) is not None]
        for nested, reason in refused:
            nested.location.emit_error(f"pysdy cannot export '{nested.name}' {reason}")
        if refused:
            raise PassFailure()
        channel = _next_channel_id(op)
        for collective in collectives:
            channel = export_collective(collective, channel)
