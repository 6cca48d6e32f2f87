"""`sdy-insert-explicit-reshards`: insert `sdy.reshard`s (and `sdy.all_reduce`s) so every op's operand and result shardings are compatible with its sharding rule."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Optional, Sequence

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.ir_memo import ir_memo
from pysdy.dialects.sdy import (
    AxisRef,
    Mesh,
    MeshOrRef,
    OpShardingRule,
    TensorSharding,
    TensorShardingPerValue,
)
from pysdy.passes.common import func_attrs
from pysdy.passes.common.data_flow import BRANCH_OPS, DATA_FLOW_OPS, MANUAL_COMPUTATION, NAMED_COMPUTATION
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.manual_axes import erase_manual_axes, manual_axes_of
from pysdy.passes.common.value_shardings import (
    get_sharding,
    set_result_sharding,
    set_sharding,
    sharding_bypassing_barriers,
)
from pysdy.passes.common.values import insertion_point_after, rank, type_rank
from pysdy.passes.export.common_axes import AxesPerFactor, find_common_axes
from pysdy.passes.export.reshape_overflow import UnshardableReshapeError, reshape_common_axes
from pysdy.passes.export.single_device_reshards import (
    refuse_single_device_func_shardings,
    reshard_single_device_op,
    single_device_sharding,
)
from pysdy.passes.export.reshard_ir import (
    MeshTable,
    create_reshard,
    fully_closed_like,
    is_empty_mesh,
    is_equivalent,
    is_fully_replicated,
    same_mesh,
)
from pysdy.passes.export.unflatten_call_graph import callee_name, functions_by_name
from pysdy.passes.export.unreduced_collectives import (
    all_reduce_if_unreduced_to_replicated,
    all_reduce_results,
    all_reduce_unreduced_operands,
    reduction_axes_needing_all_reduce,
    reshard_to_unreduced_collectives,
    unreduced_collectives_for_use,
)
from pysdy.passes.export.unreduced_presence import holds_unreduced_axes
from pysdy.passes.propagation import axis_refs
from pysdy.passes.propagation.rules import get_or_create_rule
from pysdy.passes.propagation.rules.registry import KNOWN_WITHOUT_RULE, registered_op_names
from pysdy.passes.propagation.sharding_projection import ShardingProjection, TensorFactorShardings
from pysdy.passes.registry import FUNC, Pass, PassFailure, option, register_pass


@dataclasses.dataclass(frozen=True)
class OpMesh:
    name: str
    mesh: Mesh


# --------------------------------------------------------------------------
# Resharding one use to a target sharding
# --------------------------------------------------------------------------


def reshard_use_to(
    user: ir.Operation,
    operand_index: int,
    target: Optional[TensorSharding],
    insertion_point: ir.InsertionPoint,
    meshes: MeshTable,
    full_version: bool,
) -> None:
    """Makes operand `operand_index` of `user` arrive with `target`: all-reduces its unreduced axes, then reshards."""
    sharding = get_sharding(user.operands[operand_index])
    with insertion_point:
        sharding = all_reduce_if_unreduced_to_replicated(user, operand_index, sharding, target, meshes)
        sharding = unreduced_collectives_for_use(user, operand_index, target, meshes) or sharding
        if full_version and not is_equivalent(sharding, target):
            new_sharding = target if target is not None else fully_closed_like(sharding)
            user.operands[operand_index] = create_reshard(user.operands[operand_index], new_sharding)


def _per_value(op: ir.Operation, name: str) -> list[TensorSharding]:
    if name not in op.attributes:
        return []
    return list(TensorShardingPerValue.from_attr(op.attributes[name]).shardings)


def _terminator(region: ir.Region) -> ir.Operation:
    return region.blocks[0].operations[-1].operation


def _edges(op: ir.Operation) -> list[tuple[Optional[TensorSharding], list[tuple[ir.Operation, int]]]]:
    """Each edge owner of a data-flow op (results, then block arguments): its sharding as its sources must see it, and its sources."""
    if op.name in (NAMED_COMPUTATION, MANUAL_COMPUTATION):
        in_shardings, out_shardings = _per_value(op, "in_shardings"), _per_value(op, "out_shardings")
        if op.name == MANUAL_COMPUTATION:
            manual_axes = manual_axes_of(op)
            out_shardings = [erase_manual_axes(s, manual_axes) for s in out_shardings]
        terminator = _terminator(op.regions[0])
        edges = [
            (out_shardings[i] if out_shardings else None, [(terminator, i)]) for i in range(len(op.results))
        ]
        edges += [(in_shardings[i] if in_shardings else None, [(op, i)]) for i in range(len(op.operands))]
        return edges
    if op.name == "stablehlo.while":
        source_ops = [op, _terminator(op.regions[1])]
    elif op.name in BRANCH_OPS:
        source_ops = [_terminator(region) for region in op.regions]
    else:
        source_ops = [op]
    shardings = _per_value(op, "sdy.sharding")
    return [
        (shardings[i] if shardings else None, [(source, i) for source in source_ops]) for i in range(len(op.results))
    ]


def reshard_data_flow_op(op: ir.Operation, meshes: MeshTable, full_version: bool) -> None:
    for target, sources in _edges(op):
        for user, index in sources:
            point = insertion_point_after(user.operands[index])
            reshard_use_to(user, index, target, point, meshes, full_version)


def _first_non_maximal_mesh(shardings: Sequence[Optional[TensorSharding]], meshes: MeshTable) -> Optional[MeshOrRef]:
    for sharding in shardings:
        if sharding is not None and not meshes.of(sharding).is_maximal:
            return sharding.mesh
    return None


def reshard_call(call: ir.Operation, funcs: dict[str, ir.Operation], meshes: MeshTable) -> None:
    """Reshards each call operand to the callee's argument sharding."""
    func = funcs[callee_name(call)]
    arg_shardings = func_attrs.arg_shardings(func)
    mesh = _first_non_maximal_mesh(arg_shardings, meshes)
    if mesh is not None:
        targets = [
            s if s is not None else TensorSharding.fully_open(mesh, rank(v)) for s, v in zip(arg_shardings, call.operands)
        ]
    else:
        mesh = _first_non_maximal_mesh([get_sharding(v) for v in call.operands], meshes)
        if mesh is None:
            return
        targets = [TensorSharding.fully_closed(mesh, rank(v)) for v in call.operands]
    for index, target in enumerate(targets):
        point = insertion_point_after(call.operands[index])
        reshard_use_to(call, index, target, point, meshes, True)


def reshard_func_return(func: ir.Operation, meshes: MeshTable, full_version: bool) -> None:
    terminator = _terminator(func.regions[0])
    for index in range(len(terminator.operands)):
        attr = func_attrs.get_result_attr(func, index)
        target = None if attr is None else TensorSharding.from_attr(attr)
        reshard_use_to(terminator, index, target, ir.InsertionPoint(terminator), meshes, full_version)


# --------------------------------------------------------------------------
# Ops with a sharding rule
# --------------------------------------------------------------------------


@ir_memo(1 << 12)
def common_op_mesh(shardings: tuple[Optional[TensorSharding], ...], meshes: MeshTable) -> Optional[OpMesh]:
    """The mesh the op's tensors share (ignoring device order), the most used one among its sharded tensors.

    Memoized, since ops repeat their shardings; a mesh table is keyed by identity (it never changes).
    """
    common_name, common = None, None
    for sharding in shardings:
        if sharding is None:
            continue
        mesh = meshes.of(sharding)
        if common is None or is_empty_mesh(common):
            common_name, common = sharding.mesh, mesh
        elif is_empty_mesh(mesh):
            continue
        elif not same_mesh(mesh, common, ignore_device_ids=True):
            return None
        elif not mesh.device_ids:
            common_name, common = sharding.mesh, mesh
    if common is None or common.is_maximal:
        return None
    counts: Counter[str] = Counter()
    best_name, best_count = common_name, 0
    for sharding in shardings:
        if not is_fully_replicated(sharding):
            counts[sharding.mesh] += 1
            if counts[sharding.mesh] > best_count:
                best_name, best_count = sharding.mesh, counts[sharding.mesh]
    return OpMesh(best_name, meshes.meshes[best_name])


def _is_full_version(op: ir.Operation, enabled: bool) -> bool:
    if enabled or op.name in ("mhlo.ragged_dot", "func.call"):
        return True
    if op.name == "stablehlo.concatenate":
        result_sharding = get_sharding(op.results[0])
        return any(get_sharding(operand) != result_sharding for operand in op.operands)
    return False


def _tensor_types(op: ir.Operation) -> tuple[ir.Type, ...]:
    return tuple(value.type for value in list(op.operands) + list(op.results))


def _tensor_sizes(types: Sequence[ir.Type]) -> list[int]:
    """The number of elements of each statically shaped tensor type, 0 for any other."""
    sizes = []
    for type_ in types:
        if not isinstance(type_, ir.ShapedType) or not type_.has_static_shape:
            sizes.append(0)
            continue
        size = 1
        for dim in type_.shape:
            size *= dim
        sizes.append(size)
    return sizes


def _factor_axes(tensor: TensorFactorShardings, factor: int) -> Optional[list[AxisRef]]:
    sharding = tensor.factor_index_to_sharding.get(factor)
    return None if sharding is None else sharding.axis_refs


def _tensor_sharding(tensor: TensorFactorShardings, mapping, rule: OpShardingRule, op_mesh: OpMesh) -> TensorSharding:
    return tensor.to_tensor_sharding(mapping, rule.factor_sizes, op_mesh.name, op_mesh.mesh)


def reshard_dot_result(
    op: ir.Operation,
    in_shardings: Sequence[Optional[TensorSharding]],
    out_shardings: Sequence[Optional[TensorSharding]],
    rule: OpShardingRule,
    meshes: MeshTable,
) -> None:
    """Shards a dot's result like its operands, then reshards it back, when that trades a reduce-scatter of an operand for one of the smaller result."""
    if out_shardings[0] is None:
        return
    new_sharding = _dot_result_sharding(tuple(in_shardings), tuple(out_shardings), _tensor_types(op), rule, meshes)
    if new_sharding is None:
        return
    set_result_sharding(op, 0, new_sharding)
    with ir.InsertionPoint.after(op):
        reshard = create_reshard(op.results[0], out_shardings[0])
    op.results[0].replace_all_uses_except(reshard, reshard.owner.operation)


@ir_memo(1 << 12)
def _dot_result_sharding(
    in_shardings: tuple[Optional[TensorSharding], ...],
    out_shardings: tuple[Optional[TensorSharding], ...],
    types: tuple[ir.Type, ...],
    rule: OpShardingRule,
    meshes: MeshTable,
) -> Optional[TensorSharding]:
    """The sharding `reshard_dot_result` gives the dot's result first, or None to leave it (memoized: dots repeat).

    Only when the tensors share a mesh, the operands agree, exactly one result
    factor conflicts with them, the result is no larger than the conflicting
    operand, and the result is sharded along that factor by the contraction axes.
    """
    op_mesh = common_op_mesh(in_shardings + out_shardings, meshes)
    if op_mesh is None:
        return None
    closed = closed_if_missing(in_shardings + out_shardings, [type_rank(t) for t in types], op_mesh.name)
    in_shardings, out_shardings = closed[: len(in_shardings)], closed[len(in_shardings) :]
    projection = ShardingProjection.build(in_shardings, out_shardings, rule, op_mesh.mesh)
    lhs, rhs = projection.operands
    result = projection.results[0]
    lhs_size, rhs_size, result_size = _tensor_sizes(types)
    conflicting_factor, conflicting_axes = None, None
    reduction_axes: list[AxisRef] = []
    seen_non_contracting: list[AxisRef] = []
    for factor in range(rule.num_factors):
        lhs_axes, rhs_axes = _factor_axes(lhs, factor), _factor_axes(rhs, factor)
        if lhs_axes is not None and rhs_axes is not None:
            operand_axes = lhs_axes
            max_operand_size = max(lhs_size, rhs_size)
            if lhs_axes != rhs_axes:
                return None
            if factor in rule.reduction_factors:
                reduction_axes.extend(operand_axes)
                continue
        else:
            operand_axes = lhs_axes if lhs_axes is not None else rhs_axes
            max_operand_size = lhs_size if lhs_axes is not None else rhs_size
            for ref in operand_axes:
                if any(axis_refs.overlaps(seen, ref) for seen in seen_non_contracting):
                    return None
                seen_non_contracting.append(ref)
        if _factor_axes(result, factor) != operand_axes:
            if not operand_axes or conflicting_factor is not None or result_size > max_operand_size:
                return None
            conflicting_factor, conflicting_axes = factor, operand_axes
    if conflicting_factor is None:
        return None
    result_axes = result.factor_index_to_sharding[conflicting_factor]
    if not result_axes.axis_refs or result_axes.axis_refs != reduction_axes:
        return None
    result_axes.axis_refs = list(conflicting_axes)
    return _tensor_sharding(result, rule.result_mappings[0], rule, op_mesh)


def _should_reshard_to_common_mesh(sharding: Optional[TensorSharding], op_mesh: OpMesh, meshes: MeshTable) -> bool:
    return not is_fully_replicated(sharding) and meshes.of(sharding).device_ids != op_mesh.mesh.device_ids


def insert_reshards(
    op: ir.Operation,
    in_shardings: Sequence[Optional[TensorSharding]],
    out_shardings: Sequence[Optional[TensorSharding]],
    projection: ShardingProjection,
    updated_operands: Sequence[bool],
    updated_results: Sequence[bool],
    rule: OpShardingRule,
    op_mesh: OpMesh,
    meshes: MeshTable,
) -> None:
    """Reshards the operands into, and the results out of, their projected shardings where these changed (or the mesh's device order differs)."""
    with ir.InsertionPoint(op):
        for index, sharding in enumerate(in_shardings):
            if updated_operands[index] or _should_reshard_to_common_mesh(sharding, op_mesh, meshes):
                new = _tensor_sharding(projection.operands[index], rule.operand_mappings[index], rule, op_mesh)
                op.operands[index] = create_reshard(op.operands[index], new)
    with ir.InsertionPoint.after(op):
        for index, sharding in enumerate(out_shardings):
            if updated_results[index] or _should_reshard_to_common_mesh(sharding, op_mesh, meshes):
                result = op.results[index]
                new = _tensor_sharding(projection.results[index], rule.result_mappings[index], rule, op_mesh)
                # Read now: setting an earlier result's sharding gave an unsharded op open ones on every result.
                old = get_sharding(result)
                if old is None:
                    old = TensorSharding.fully_closed(op_mesh.name, rank(result))
                reshard = create_reshard(result, old)
                result.replace_all_uses_except(reshard, reshard.owner.operation)
                set_sharding(result, new)


def reshard_to_common_axes(
    op: ir.Operation,
    projection: ShardingProjection,
    in_shardings: Sequence[Optional[TensorSharding]],
    out_shardings: Sequence[Optional[TensorSharding]],
    rule: OpShardingRule,
    op_mesh: OpMesh,
    meshes: MeshTable,
) -> AxesPerFactor:
    """The full version: gives every factor one sharding across the op's tensors and reshards to it."""
    updated_operands = [t.has_overflow_axes() for t in projection.operands]
    updated_results = [t.has_overflow_axes() for t in projection.results]
    if op.name == "stablehlo.reshape" and any(updated_operands + updated_results):
        try:
            common, operand_changes, result_changes = reshape_common_axes(
                projection, in_shardings[0], out_shardings[0], rule, op_mesh.name, op_mesh.mesh
            )
        except UnshardableReshapeError as error:
            op.location.emit_error(f"sdy-insert-explicit-reshards: cannot redistribute the reshape's axes: {error}")
            raise PassFailure() from error
        updated_operands, updated_results = [operand_changes], [result_changes]
    else:
        common = find_common_axes(projection, rule, _tensor_sizes(_tensor_types(op)), op_mesh.mesh)
        for factor, axes in enumerate(common):
            operands, results = projection.update_sharding(factor, axes)
            updated_operands = [a or b for a, b in zip(updated_operands, operands)]
            updated_results = [a or b for a, b in zip(updated_results, results)]
    insert_reshards(
        op, in_shardings, out_shardings, projection, updated_operands, updated_results, rule, op_mesh, meshes
    )
    return common


def _reduction_axes(
    op: ir.Operation,
    result_sharding: Optional[TensorSharding],
    in_shardings: Sequence[TensorSharding],
    out_shardings: Sequence[TensorSharding],
    common: Optional[AxesPerFactor],
    rule: OpShardingRule,
    op_mesh: OpMesh,
) -> list[AxisRef]:
    """The axes the op's reduction factors are sharded on (without the full version: only if its first result is
    unreduced, and then every operand must shard each reduction factor alike, as Shardy checks)."""
    if common is not None:
        return [ref for factor in rule.reduction_factors for ref in common[factor]]
    if result_sharding is None or not result_sharding.unreduced:
        return []
    projection = ShardingProjection.build(in_shardings, out_shardings, rule, op_mesh.mesh)
    axes = []
    for factor in rule.reduction_factors:
        factor_axes = [_factor_axes(operand, factor) for operand in projection.operands]
        factor_axes = [operand_axes for operand_axes in factor_axes if operand_axes is not None]
        if any(operand_axes != factor_axes[0] for operand_axes in factor_axes):
            op.location.emit_error(
                "the result has unreduced axes while the operands are sharded differently along a reduction factor"
            )
            raise PassFailure()
        axes.extend(factor_axes[0] if factor_axes else [])
    return axes


def closed_if_missing(
    shardings: Sequence[Optional[TensorSharding]], ranks: Sequence[int], mesh_name: str
) -> tuple[TensorSharding, ...]:
    return tuple(s if s is not None else TensorSharding.fully_closed(mesh_name, r) for s, r in zip(shardings, ranks))


def process_op_with_rule(
    op: ir.Operation, rule: OpShardingRule, meshes: MeshTable, full_version: bool, mark_partial_results: bool
) -> None:
    operands, results = list(op.operands), list(op.results)
    # An operand behind propagation barriers has the sharding of the value they start from.
    in_shardings = [sharding_bypassing_barriers(v) for v in operands]
    out_shardings = [get_sharding(v) for v in results]
    if not full_version:
        if op.name in ("stablehlo.dot", "stablehlo.dot_general"):
            reshard_dot_result(op, in_shardings, out_shardings, rule, meshes)
        if not results or out_shardings[0] is None or not out_shardings[0].unreduced:
            return  # no reduction axes to all-reduce
    op_mesh = common_op_mesh(tuple(in_shardings + out_shardings), meshes)
    if op_mesh is None:
        return
    # The shardings before any reshard, to project through the rule.
    closed_in = closed_if_missing(in_shardings, [rank(v) for v in operands], op_mesh.name)
    closed_out = closed_if_missing(out_shardings, [rank(v) for v in results], op_mesh.name)
    common = None
    if full_version:
        projection = ShardingProjection.build(closed_in, closed_out, rule, op_mesh.mesh)
        common = reshard_to_common_axes(op, projection, in_shardings, out_shardings, rule, op_mesh, meshes)
    if not results:
        return
    reduction_axes = _reduction_axes(op, out_shardings[0], closed_in, closed_out, common, rule, op_mesh)
    if not reduction_axes:
        return
    axes = reduction_axes_needing_all_reduce(reduction_axes, op, meshes, op_mesh.name)
    if axes:
        all_reduce_results(op, axes, op_mesh.name, op_mesh.mesh, mark_partial_results)


# The ops that can get reshards when no tensor is unreduced and the full version is off:
# data-flow ops, calls, dots (their result), and the ops always given the full version.
_RESHARDED_WITHOUT_UNREDUCED = DATA_FLOW_OPS | {
    "func.call",
    "stablehlo.dot",
    "stablehlo.dot_general",
    "stablehlo.concatenate",
    "mhlo.ragged_dot",
}


def _ops_whose_rule_never_warns() -> frozenset[str]:
    """Op names the rule registry builds a rule for (or knowingly none) without a warning; a custom call warns about unknown targets."""
    return (frozenset(registered_op_names()) | KNOWN_WITHOUT_RULE) - {"stablehlo.custom_call"}


@register_pass
@dataclasses.dataclass(frozen=True)
class InsertExplicitReshardsPass(Pass):
    argument = "sdy-insert-explicit-reshards"
    summary = "Inserts explicit reshards to make all operations have compatible shardings."
    anchor = FUNC
    leaves_invalid_ir = True  # e.g. a result sharding that shards a dimension along one of its unreduced axes

    enable_full_version: bool = option(False, "Enable full version.")
    mark_partial_result_with_unreduced_axes: bool = option(
        False,
        "Whether to mark partial reduction results with unreduced axes.",
        line_field="reshards_mark_partial_results_unreduced",
    )

    def run(self, op: ir.Operation) -> None:
        if not op.regions[0].blocks:  # a declaration: no body to reshard
            return
        module = op.parent
        meshes = MeshTable(module)
        if versions.installed().explicit_reshards_refuse_maximal_func_shardings:
            refuse_single_device_func_shardings(op, meshes)
        funcs = functions_by_name(module)
        ops = nested_ops(op)[:-1]
        has_unreduced = holds_unreduced_axes(op, ops, funcs)
        # Without the full version or unreduced axes, only these ops can need reshards.
        reshard_all = self.enable_full_version or has_unreduced
        quiet_rule_ops = _ops_whose_rule_never_warns()
        around_single_device_ops = versions.installed().reshards_around_single_device_ops
        global_mesh = meshes.global_mesh()
        for nested in ops:
            full_version = _is_full_version(nested, self.enable_full_version)
            if nested.name in DATA_FLOW_OPS:
                reshard_data_flow_op(nested, meshes, full_version)
                continue
            if nested.name == "func.call":
                reshard_call(nested, funcs, meshes)
                continue
            # Any other op with a result on a maximal mesh (a host callback, or a reshard to one) is a single-device op,
            # resharded only in a module with a global mesh.
            device = single_device_sharding(nested, meshes) if around_single_device_ops else None
            if device is not None:
                if global_mesh is not None:
                    reshard_single_device_op(nested, device, global_mesh, meshes)
                continue
            if not reshard_all and nested.name not in _RESHARDED_WITHOUT_UNREDUCED:
                if nested.name not in quiet_rule_ops:
                    get_or_create_rule(nested)  # for its unknown-op warning, the one effect left
                continue
            if nested.has_trait(ir.IsTerminatorTrait):
                continue
            if has_unreduced:
                if nested.name == "sdy.reshard" and reshard_to_unreduced_collectives(nested, meshes):
                    continue
                all_reduce_unreduced_operands(nested, meshes)
            rule = get_or_create_rule(nested)
            if rule is None or rule.is_custom:
                continue
            process_op_with_rule(nested, rule, meshes, full_version, self.mark_partial_result_with_unreduced_axes)
        reshard_func_return(op, meshes, self.enable_full_version)
