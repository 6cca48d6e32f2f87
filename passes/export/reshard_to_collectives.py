"""`sdy-reshard-to-collectives`: replace every `sdy.reshard` by the all-slices, collective-permutes, all-to-alls and all-gathers that make its input sharding its output sharding."""

from __future__ import annotations

import dataclasses
from typing import Sequence

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import AxisRef, TensorSharding
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding, through_barriers
from pysdy.passes.export.collective_plan import (
    AllGather,
    AllSlice,
    AllToAll,
    Collective,
    CollectivePermute,
    IncompleteReshardError,
    plan_collectives,
)
from pysdy.passes.export.reshard_ir import MeshTable
from pysdy.passes.registry import FUNC, Pass, PassFailure, option, register_pass


def _axes_per_dim_attr(axes_per_dim: Sequence[Sequence[AxisRef]]) -> ir.Attribute:
    lists = ", ".join("{" + ", ".join(map(str, axes)) + "}" for axes in axes_per_dim)
    return ir.Attribute.parse(f"#sdy<list_of_axis_ref_lists[{lists}]>")


def _all_to_all_params_attr(collective: AllToAll) -> ir.Attribute:
    axes = ", ".join(map(str, collective.axes))
    return ir.Attribute.parse(
        f"#sdy<all_to_all_param_list[{{{axes}}}: {collective.src_dim}->{collective.tgt_dim}]>"
    )


def _create_collective(value: ir.Value, collective: Collective, loc: ir.Location) -> ir.Value:
    attributes = {"out_sharding": collective.out_sharding.to_attr()}
    if isinstance(collective, AllSlice):
        name = "sdy.all_slice"
        attributes["slicing_axes"] = _axes_per_dim_attr(collective.slicing_axes)
    elif isinstance(collective, AllGather):
        name = "sdy.all_gather"
        attributes["gathering_axes"] = _axes_per_dim_attr(collective.gathering_axes)
    elif isinstance(collective, AllToAll):
        name = "sdy.all_to_all"
        attributes["params"] = _all_to_all_params_attr(collective)
    else:
        assert isinstance(collective, CollectivePermute)
        name = "sdy.collective_permute"
    op = ir.Operation.create(name, results=[value.type], operands=[value], attributes=attributes, loc=loc)
    return op.results[0]


def _is_fully_replicated_dims(sharding: TensorSharding) -> bool:
    return all(not dim.axes for dim in sharding.dims)


def _collectives_for(reshard: ir.Operation, input_value: ir.Value, meshes: MeshTable) -> list[Collective] | None:
    """The collectives replacing `reshard` of `input_value`, or None when Shardy leaves it alone (meshes with
    different axes, and on the lines that keep them, a maximal mesh on either side)."""
    out_sharding = TensorSharding.from_attr(reshard.attributes["sharding"])
    shape = ir.RankedTensorType(input_value.type).shape
    in_sharding = get_sharding(input_value)
    if in_sharding is None:
        in_sharding = TensorSharding.fully_closed(out_sharding.mesh, len(shape))
    if not isinstance(in_sharding.mesh, str) or not isinstance(out_sharding.mesh, str):
        reshard.location.emit_error("sdy-reshard-to-collectives: shardings with an inlined mesh are not supported")
        raise PassFailure()
    in_mesh = meshes.of(in_sharding)
    if versions.installed().reshards_keep_maximal_meshes and (in_mesh.is_maximal or meshes.of(out_sharding).is_maximal):
        return None
    out_mesh_name = out_sharding.mesh
    unreduced = out_sharding.unreduced
    if _is_fully_replicated_dims(out_sharding):
        # Shardy gathers into a replicated output on the input's device order and without unreduced axes.
        out_mesh_name = in_sharding.mesh
        unreduced = ()
    elif meshes.of(out_sharding).axes != in_mesh.axes:
        return None
    if in_sharding.rank != out_sharding.rank:
        # A maximal sharding (no dimensions) on one side of a tensor with dimensions: no collectives make one
        # the other, and Shardy's conversion fails on the reshard (printed as the IR stands at that point).
        reshard.location.emit_error(
            "failed to legalize operation 'sdy.reshard' that was explicitly marked illegal: "
            + reshard.get_asm(print_generic_op_form=True, use_local_scope=True)
        )
        raise PassFailure()
    try:
        return plan_collectives(
            in_sharding,
            dataclasses.replace(out_sharding, unreduced=unreduced),
            out_mesh_name,
            in_mesh,
            shape,
            versions.installed().reshards_empty_unevenly_padded_dims,
        )
    except IncompleteReshardError as error:
        reshard.location.emit_error(f"sdy-reshard-to-collectives: {error}")
        raise PassFailure() from error


def _is_redundant(reshard: ir.Operation, input_value: ir.Value) -> bool:
    """Whether jaxlib keeps the reshard of `input_value` with keep-redundant-reshards: its input and output
    shardings have the same axes on every dimension (open or closed; replicated axes do not count, unreduced ones
    only on the lines that compare them), and the same mesh unless no dimension is sharded."""
    in_sharding = get_sharding(input_value)
    out_sharding = TensorSharding.from_attr(reshard.attributes["sharding"])
    if versions.installed().redundant_reshards_compare_unreduced:
        in_unreduced = set(in_sharding.unreduced) if in_sharding is not None else set()
        if in_unreduced != set(out_sharding.unreduced):
            return False
    out_axes = [dim.axes for dim in out_sharding.dims]
    if in_sharding is None:
        return not any(out_axes)
    in_axes = [dim.axes for dim in in_sharding.dims]
    if not any(in_axes) and not any(out_axes):
        return True
    return in_sharding.mesh == out_sharding.mesh and in_axes == out_axes


@register_pass
@dataclasses.dataclass(frozen=True)
class ReshardToCollectivesPass(Pass):
    argument = "sdy-reshard-to-collectives"
    summary = "Converts ReshardOp into various Shardy collective ops."
    anchor = FUNC
    leaves_invalid_ir = True  # e.g. a collective permute between two meshes of other names and the same devices

    keep_redundant_reshards: bool = option(False, "Whether it keeps redundant reshards or removes.")

    def run(self, op: ir.Operation) -> None:
        """As in Shardy's dialect conversion, reshards are converted in order, each of the value replacing its
        input (the collectives of an earlier reshard, which end on its sharding but for axes of size 1), and
        replaced reshards go only once all are converted. Whether a reshard is redundant is decided on its input
        as the IR has it."""
        meshes = MeshTable(op.parent)
        replacements: dict[ir.Value, ir.Value] = {}
        replaced = []
        for reshard in nested_ops(op, pre_order=True, name="sdy.reshard"):
            # A barrier folds to its input there, though it stays in the IR for its other users.
            input_value = through_barriers(reshard.operands[0])
            if self.keep_redundant_reshards and _is_redundant(reshard, input_value):
                continue
            value = replacements.get(input_value, input_value)
            collectives = _collectives_for(reshard, value, meshes)
            if collectives is None:
                continue
            with ir.InsertionPoint(reshard):
                for collective in collectives:
                    value = _create_collective(value, collective, reshard.location)
            replacements[reshard.results[0]] = value
            replaced.append((reshard, value))
        # Last first: a replacement may be an earlier reshard's result, which must still exist then.
        for reshard, value in reversed(replaced):
            reshard.results[0].replace_all_uses_with(value)
            reshard.erase()
