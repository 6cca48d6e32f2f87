"""`sdy-optimize-collectives` (jax lines from 0.11): a collective permute that only reorders the axes of one
dimension, followed by all-to-alls moving those axes off it, becomes a reshape splitting that dimension into one
dimension per axis, all-to-alls on the split tensor, and a reshape back, as jaxlib's Shardy rewrites it.

The rewrite, per collective permute (run by MLIR's greedy driver, which also erases dead ops and deduplicates
constants, as the C++ pass's driver does):
- The permute's input and output shardings are on one mesh, differ (once sub-axes are aligned) on exactly one
  dimension, the split dimension, where the output reorders at least two axes of the input, and no dimension
  changes between open and closed. The input is a static tensor of rank >= 1.
- Its only user starts a chain of all-to-alls, each moving axes off the split dimension and each but the last
  the only user of the one before. Some moved axis contains an input axis the permute changed the position of.
- The split dimension (its size divisible by the product of the input axes' sizes) becomes one dimension per
  input axis, in order, each closed on that axis, then a closed unsharded dimension of the rest if it is > 1.
- Each all-to-all becomes one moving every input axis that one of its axes contains, from that axis's dimension
  to its target dimension (shifted past the split dimensions).
- Then one-axis all-to-alls move the axes the last all-to-all leaves on the split dimension, in its order,
  into the first split dimensions: for the first target position that is empty, from where its axis is.
- The reshape back has the last all-to-all's sharding, and must keep every axis's stride in the flat buffer.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Optional, Sequence

from jaxlib.mlir import ir
from jaxlib.mlir._mlir_libs._mlir import rewrite

from pysdy.dialects.sdy import AxisRef, DimSharding, Mesh, TensorSharding
from pysdy.passes.common.collective_attrs import all_to_all_params
from pysdy.passes.common.value_shardings import get_sharding, set_result_sharding
from pysdy.passes.common.values import is_static_shaped, rank
from pysdy.passes.export.collective_plan import align_sub_axes
from pysdy.passes.export.reshard_ir import MeshTable
from pysdy.passes.propagation import axis_refs
from pysdy.passes.registry import FUNC, Pass, PassFailure, register_pass

# What a pattern callback returns to tell the driver it did not rewrite.
_NO_MATCH = True


@dataclasses.dataclass(frozen=True)
class _Stage:
    """One all-to-all of the rewrite: its (axis, source dim, target dim) params and the sharding it produces."""

    params: tuple[tuple[AxisRef, int, int], ...]
    out_sharding: TensorSharding


@register_pass
@dataclasses.dataclass(frozen=True)
class OptimizeCollectivesPass(Pass):
    argument = "sdy-optimize-collectives"
    summary = "Optimizes collectives (a collective permute before all-to-alls)."
    anchor = FUNC
    line_field = "optimize_collectives"

    def run(self, op: ir.Operation) -> None:
        meshes = MeshTable(op.parent)

        def rewrite_permute(cp: ir.OpView, rewriter: rewrite.PatternRewriter) -> bool | None:
            return _rewrite(cp.operation, meshes, rewriter)

        patterns = rewrite.RewritePatternSet(op.context)
        patterns.add("sdy.collective_permute", rewrite_permute)
        try:
            rewrite.apply_patterns_and_fold_greedily(op, patterns.freeze(), rewrite.GreedyRewriteConfig())
        except RuntimeError as error:  # the driver did not converge, which the C++ pass reports as failure
            op.location.emit_error(f"{self.argument}: {error}")
            raise PassFailure() from None


@dataclasses.dataclass(frozen=True)
class _Plan:
    """The rewrite of one permute: its all-to-all chain, and the split tensor with the all-to-alls on it."""

    chain: list[ir.Operation]
    split_shape: list[int]
    split_sharding: TensorSharding
    stages: list[_Stage]


def _rewrite(cp: ir.Operation, meshes: MeshTable, rewriter: rewrite.PatternRewriter) -> bool | None:
    plan = _plan(cp, meshes)
    if plan is None:
        return _NO_MATCH
    _emit(cp, plan, rewriter)
    return None


def _plan(cp: ir.Operation, meshes: MeshTable) -> Optional[_Plan]:
    value = cp.operands[0]
    if not is_static_shaped(value) or rank(value) == 0:
        return None
    in_sharding, cp_sharding = get_sharding(value), get_sharding(cp.results[0])
    if in_sharding is None or cp_sharding is None or in_sharding.mesh != cp_sharding.mesh:
        return None
    if isinstance(in_sharding.mesh, str) and in_sharding.mesh not in meshes.meshes:
        return None
    mesh = meshes.of(in_sharding)
    in_axes = [list(dim.axes) for dim in in_sharding.dims]
    cp_axes = [list(dim.axes) for dim in cp_sharding.dims]
    align_sub_axes(in_axes, cp_axes, mesh)
    split_dim = _split_dim(in_axes, cp_axes, in_sharding, cp_sharding)
    if split_dim is None:
        return None
    chain = _all_to_all_chain(cp, split_dim)
    split_axes = in_axes[split_dim]
    moved = [axis for a2a in chain for _, axes, _ in all_to_all_params(a2a) for axis in axes]
    if not any(
        before != after and any(axis_refs.contains(axis, before) for axis in moved)
        for before, after in zip(split_axes, cp_axes[split_dim])
    ):
        return None
    shape = list(ir.RankedTensorType(value.type).shape)
    sizes = [axis.size(mesh) for axis in split_axes]
    if shape[split_dim] < math.prod(sizes) or shape[split_dim] % math.prod(sizes):
        return None
    rest = shape[split_dim] // math.prod(sizes)
    num_split_dims = len(split_axes) + (rest > 1)
    split_shape = shape[:split_dim] + sizes + ([rest] if rest > 1 else []) + shape[split_dim + 1 :]
    split_dims = [DimSharding((axis,), True) for axis in split_axes] + ([DimSharding((), True)] if rest > 1 else [])
    split_sharding = _with_dims(
        in_sharding, in_sharding.dims[:split_dim] + tuple(split_dims) + in_sharding.dims[split_dim + 1 :]
    )
    stages = _chain_stages(chain, split_dim, num_split_dims, split_axes, split_sharding)
    if not stages:
        return None
    out_sharding = get_sharding(chain[-1].results[0])
    reorder = _reorder_stages(stages[-1].out_sharding, split_dim, num_split_dims, out_sharding.dims[split_dim].axes)
    if reorder is None:
        return None
    stages += reorder
    out_shape = list(ir.RankedTensorType(chain[-1].results[0].type).shape)
    if not _same_strides(stages[-1].out_sharding, split_shape, out_sharding, out_shape, mesh):
        return None
    return _Plan(chain, split_shape, split_sharding, stages)


def _split_dim(
    in_axes: Sequence[Sequence[AxisRef]],
    cp_axes: Sequence[Sequence[AxisRef]],
    in_sharding: TensorSharding,
    cp_sharding: TensorSharding,
) -> Optional[int]:
    """The one dimension whose axes the permute reorders (at least two of them); None if there is no such single
    dimension or a dimension changes between open and closed."""
    split_dim = None
    for dim, (before, after) in enumerate(zip(in_axes, cp_axes)):
        if before != after:
            if split_dim is not None:
                return None
            split_dim = dim
        if in_sharding.dims[dim].is_closed != cp_sharding.dims[dim].is_closed:
            return None
    if split_dim is None:
        return None
    before, after = in_axes[split_dim], cp_axes[split_dim]
    if len(before) < 2 or len(before) != len(after) or sorted(before, key=axis_refs.sort_key) != sorted(
        after, key=axis_refs.sort_key
    ):
        return None
    return split_dim


def _all_to_all_chain(cp: ir.Operation, split_dim: int) -> list[ir.Operation]:
    """The all-to-alls after the permute, each the only user of the one before, that move axes off `split_dim`."""
    chain: list[ir.Operation] = []
    current = cp
    while True:
        uses = list(current.results[0].uses)
        if len(uses) != 1:
            break
        user = uses[0].owner.operation
        if user.name != "sdy.all_to_all" or any(src != split_dim for src, _, _ in all_to_all_params(user)):
            break
        chain.append(user)
        current = user
    return chain


def _with_dims(sharding: TensorSharding, dims: Sequence[DimSharding]) -> TensorSharding:
    return dataclasses.replace(sharding, dims=tuple(dims))


def _stage(sharding: TensorSharding, params: Sequence[tuple[AxisRef, int, int]]) -> _Stage:
    """An all-to-all of `params` on a tensor of `sharding`: each source dim ends closed and unsharded."""
    params = tuple(sorted(params, key=lambda param: param[1]))
    dims = list(sharding.dims)
    for axis, src, tgt in params:
        dims[src] = DimSharding((), True)
        dims[tgt] = DimSharding(dims[tgt].axes + (axis,), dims[tgt].is_closed)
    return _Stage(params, _with_dims(sharding, dims))


def _chain_stages(
    chain: Sequence[ir.Operation],
    split_dim: int,
    num_split_dims: int,
    split_axes: Sequence[AxisRef],
    sharding: TensorSharding,
) -> list[_Stage]:
    """One all-to-all per all-to-all of the chain that moves a split axis, on the split tensor."""
    stages = []
    for a2a in chain:
        params = []
        for _, axes, tgt in all_to_all_params(a2a):
            split_tgt = tgt if tgt < split_dim else tgt + num_split_dims - 1
            for axis in axes:
                params += [(ref, split_dim + k, split_tgt) for k, ref in enumerate(split_axes) if axis_refs.contains(axis, ref)]
        if params:
            stages.append(_stage(sharding, params))
            sharding = stages[-1].out_sharding
    return stages


def _reorder_stages(
    sharding: TensorSharding, split_dim: int, num_split_dims: int, target: Sequence[AxisRef]
) -> Optional[list[_Stage]]:
    """One-axis all-to-alls putting `target` (the axes left on the split dimension) into the first split
    dimensions; None where an axis of `target` is on no split dimension or no move is free."""
    if len(target) > num_split_dims:
        return None
    held: list[Optional[AxisRef]] = [
        (sharding.dims[split_dim + i].axes or (None,))[0] for i in range(num_split_dims)
    ]
    stages = []
    while held[: len(target)] != list(target):
        move = _next_move(held, target)
        if move is None:
            return None
        src, tgt = move
        stages.append(_stage(sharding, [(held[src], split_dim + src, split_dim + tgt)]))
        sharding = stages[-1].out_sharding
        held[tgt], held[src] = held[src], None
    return stages


def _next_move(held: Sequence[Optional[AxisRef]], target: Sequence[AxisRef]) -> Optional[tuple[int, int]]:
    """(from, to) for the first empty split dimension that `target` wants an axis on."""
    for tgt, axis in enumerate(target):
        if held[tgt] is not None:
            continue
        if axis not in held:
            return None
        return held.index(axis), tgt
    return None


def _same_strides(
    first: TensorSharding, first_shape: Sequence[int], second: TensorSharding, second_shape: Sequence[int], mesh: Mesh
) -> bool:
    """Shardy's `isShardingEquivalentAcrossReshapes`: every axis has the same stride in the row-major buffer of
    either tensor (a dimension not divisible by its axes has the rounded-up shard size)."""
    if first.mesh != second.mesh or first.replicated != second.replicated:
        return False
    return _axis_strides(first, first_shape, mesh) == _axis_strides(second, second_shape, mesh)


def _axis_strides(sharding: TensorSharding, shape: Sequence[int], mesh: Mesh) -> list[tuple[AxisRef, int]]:
    strides = []
    elements = 1
    for dim in reversed(range(len(shape))):
        axes = sharding.dims[dim].axes
        sharded = 1
        for axis in axes:
            sharded *= axis.size(mesh)
        stride = elements * -(-shape[dim] // sharded)
        for axis in reversed(axes):
            strides.append((axis, stride))
            stride *= axis.size(mesh)
        elements *= shape[dim]
    return sorted(strides, key=lambda entry: entry[1])


def _emit(cp: ir.Operation, plan: _Plan, rewriter: rewrite.PatternRewriter) -> None:
    """Reshape, all-to-alls and reshape back before the permute, at its location; the last all-to-all of the chain
    is replaced, the rest of the chain and the permute erased."""
    value, terminal = cp.operands[0], plan.chain[-1]
    with cp.location, ir.InsertionPoint(cp):
        split_type = ir.RankedTensorType.get(plan.split_shape, ir.RankedTensorType(value.type).element_type)
        current = _reshape(value, split_type, plan.split_sharding)
        for stage in plan.stages:
            params = ", ".join(f"{{{axis}}}: {src}->{tgt}" for axis, src, tgt in stage.params)
            current = ir.Operation.create(
                "sdy.all_to_all",
                results=[split_type],
                operands=[current],
                attributes={
                    "params": ir.Attribute.parse(f"#sdy<all_to_all_param_list[{params}]>"),
                    "out_sharding": stage.out_sharding.to_attr(),
                },
            ).results[0]
        reshape_back = _reshape(current, terminal.results[0].type, get_sharding(terminal.results[0])).owner
    rewriter.replace_op(terminal, reshape_back)
    for a2a in reversed(plan.chain[:-1]):
        rewriter.erase_op(a2a)
    rewriter.erase_op(cp)


def _reshape(value: ir.Value, result_type: ir.Type, sharding: TensorSharding) -> ir.Value:
    op = ir.Operation.create("stablehlo.reshape", results=[result_type], operands=[value])
    set_result_sharding(op, 0, sharding)
    return op.results[0]
