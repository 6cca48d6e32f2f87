"""`sdy-resolve-permutation-factors`: ops whose permutation factors (a pad's, slice's, reverse's or window's moving
dimensions) are sharded get them replicated through explicit reshards, or, for a reverse, a mirrored device order.

Like jaxlib's Shardy, a sharded reverse whose reversed dimensions divide evenly keeps its operand's sharding on a mesh
with the device order mirrored along the reversed axes: from jax 0.11 its result gets that sharding and is resharded
back to its own after the op; before, the operand was resharded onto it and the result took the operand's sharding.
Slice dimensions each device computes from its own shard stay sharded, and so, from jax 0.11, do such pad dimensions.

pysdy refuses, with an error on the op, what it does not implement: jaxlib's halo exchanges (a non-divisible
reverse; from jax 0.11 a pad or slice needing its neighbours' data or sharded unevenly, and any sharded reshape),
and the replications where jaxlib's Shardy departs from the plain rule in ways pysdy does not follow (an op with
unreduced axes or more shards than elements in a dimension; from jax 0.12 a sharded convolution, or a dynamic update
slice whose result alone would be resharded). Where jaxlib's Shardy crashes (as on any op of an unregistered
dialect), pysdy refuses too.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Optional, Sequence

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import Mesh, OpShardingRule, TensorSharding
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding, set_sharding
from pysdy.passes.common.values import rank
from pysdy.passes.export.insert_explicit_reshards import closed_if_missing, common_op_mesh, insert_reshards
from pysdy.passes.export.mirrored_mesh import MeshSymbols, mirrored_mesh
from pysdy.passes.export.reshard_ir import MeshTable, create_reshard, is_fully_replicated
from pysdy.passes.propagation.rules import get_or_create_rule
from pysdy.passes.propagation.sharding_projection import ShardingProjection
from pysdy.passes.registry import MODULE, Pass, PassFailure, option, register_pass

_PASS = "sdy-resolve-permutation-factors"


def _refuse(op: ir.Operation, what: str) -> None:
    op.location.emit_error(f"{_PASS}: {what}")
    raise PassFailure()


def _shard_count(sharding: TensorSharding, dim: int, mesh: Mesh) -> int:
    return math.prod(ref.size(mesh) for ref in sharding.dims[dim].axes)


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _slice_dim_is_communication_free(op: ir.Operation, dim: int, sharding: TensorSharding, mesh: Mesh) -> bool:
    """Each device slices its own shard: the dimension is not sharded, or is sliced from 0 with stride 1 to a size
    giving every device as many elements as before."""
    count = _shard_count(sharding, dim, mesh)
    if count <= 1:
        return True
    start = ir.DenseI64ArrayAttr(op.attributes["start_indices"])[dim]
    stride = ir.DenseI64ArrayAttr(op.attributes["strides"])[dim]
    if start != 0 or stride != 1:
        return False
    in_size = ir.RankedTensorType(op.operands[0].type).shape[dim]
    out_size = ir.RankedTensorType(op.results[0].type).shape[dim]
    return _ceil_div(in_size, count) == _ceil_div(out_size, count)


def _pad_dim_is_communication_free(op: ir.Operation, dim: int, sharding: TensorSharding, mesh: Mesh) -> bool:
    """Each device pads its own shard: the dimension is not sharded, or has no interior padding and every device's
    output shard takes operand elements from its own operand shard alone."""
    count = _shard_count(sharding, dim, mesh)
    if count <= 1:
        return True
    if ir.DenseI64ArrayAttr(op.attributes["interior_padding"])[dim] != 0:
        return False
    in_size = ir.RankedTensorType(op.operands[0].type).shape[dim]
    in_shard = _ceil_div(in_size, count)
    out_shard = _ceil_div(ir.RankedTensorType(op.results[0].type).shape[dim], count)
    low = ir.DenseI64ArrayAttr(op.attributes["edge_padding_low"])[dim]
    for device in range(count):
        first = max(0, device * out_shard - low)
        last = min(in_size - 1, device * out_shard - low + out_shard - 1)
        if first <= last and (first // in_shard != device or last // in_shard != device):
            return False
    return True


def _shards_unevenly(values: Sequence[ir.Value], shardings: Sequence[TensorSharding], mesh: Mesh) -> bool:
    """Some dimension's size is not a multiple of its shard count."""
    for value, sharding in zip(values, shardings):
        shape = ir.RankedTensorType(value.type).shape
        if any(shape[dim] % _shard_count(sharding, dim, mesh) for dim in range(len(shape))):
            return True
    return False


def _shards_beyond_size(values: Sequence[ir.Value], shardings: Sequence[TensorSharding], mesh: Mesh) -> bool:
    """Some dimension has more shards than elements."""
    for value, sharding in zip(values, shardings):
        shape = ir.RankedTensorType(value.type).shape
        if any(shape[dim] < _shard_count(sharding, dim, mesh) for dim in range(len(shape))):
            return True
    return False


_COMMUNICATION_FREE_DIM = {
    "stablehlo.slice": _slice_dim_is_communication_free,
    "stablehlo.pad": _pad_dim_is_communication_free,
}


def _operand_sharding_and_mesh(op: ir.Operation, meshes: MeshTable) -> Optional[tuple[TensorSharding, Mesh]]:
    """The sharding of the op's first operand and its mesh, None where it shards nothing (or is on a maximal mesh)."""
    sharding = get_sharding(op.operands[0])
    if is_fully_replicated(sharding):
        return None
    mesh = meshes.of(sharding)
    return None if mesh.is_maximal else (sharding, mesh)


def _check_pad_or_slice_needs_no_exchange(op: ir.Operation, meshes: MeshTable) -> None:
    """From jax 0.11 a pad or slice is left as it is where each device computes its part from its own shard;
    jaxlib exchanges halos for the others, which pysdy refuses."""
    found = _operand_sharding_and_mesh(op, meshes)
    if found is None:
        return
    sharding, mesh = found
    if _shards_unevenly([op.operands[0]], [sharding], mesh):
        _refuse(op, f"pysdy does not implement the halo exchange of a '{op.name}' sharded unevenly")
    is_free = _COMMUNICATION_FREE_DIM[op.name]
    for dim in range(rank(op.operands[0])):
        if not is_free(op, dim, sharding, mesh):
            _refuse(op, f"pysdy does not implement the halo exchange of a '{op.name}' along its sharded dimension {dim}")


def _check_reshape_left_alone(op: ir.Operation) -> None:
    """From jax 0.11 jaxlib resolves sharded reshapes (by replication or halo exchange); pysdy refuses them."""
    missing = (get_sharding(op.operands[0]) is None, get_sharding(op.results[0]) is None)
    if missing[0] != missing[1] and versions.installed().permutation_factors_crash_on_missing_shardings:
        # jaxlib's Shardy aborts the process here.
        _refuse(op, "the reshape's operand and result are not both sharded")
    if is_fully_replicated(get_sharding(op.operands[0])) and is_fully_replicated(get_sharding(op.results[0])):
        return
    _refuse(op, "pysdy does not implement resolving a sharded 'stablehlo.reshape' (jax 0.11 and later)")


def _resolve_reverse(op: ir.Operation, meshes: MeshTable, symbols: MeshSymbols) -> None:
    """A sharded reverse keeps its sharding on the mesh mirrored along the axes of its reversed dimensions."""
    found = _operand_sharding_and_mesh(op, meshes)
    if found is None:
        return
    sharding, mesh = found
    shape = ir.RankedTensorType(op.operands[0].type).shape
    axes = []
    for dim in ir.DenseI64ArrayAttr(op.attributes["dimensions"]):
        count = _shard_count(sharding, dim, mesh)
        if count <= 1:
            continue
        if shape[dim] % count:
            _refuse(op, f"pysdy does not implement the halo exchange of a reverse along non-divisible dimension {dim}")
        axes.extend(sharding.dims[dim].axes)
    if not axes:
        return
    if isinstance(sharding.mesh, Mesh):
        _refuse(op, "pysdy does not implement mirroring the device order of an inlined mesh")
    name = symbols.get_or_create(mirrored_mesh(mesh, axes), f"{sharding.mesh}_reversed", op.location)
    mirrored = dataclasses.replace(sharding, mesh=name)
    result = op.results[0]
    if not versions.installed().permutation_factors_reverse_result_mirrored:
        with ir.InsertionPoint(op):
            op.operands[0] = create_reshard(op.operands[0], mirrored)
        set_sharding(result, sharding)
        return
    target = get_sharding(result)
    if target is None:
        _refuse(op, "the reverse's result has no sharding to reshard back to")
    set_sharding(result, mirrored)
    with ir.InsertionPoint.after(op):
        reshard = create_reshard(result, target)
    result.replace_all_uses_except(reshard, reshard.owner.operation)


def _replicate_permutation_factors(
    op: ir.Operation, rule: OpShardingRule, meshes: MeshTable, keeps_communication_free_pad_dims: bool
) -> None:
    """Reshards the op's tensors so that no permutation factor is sharded, except the slice dimensions (and, with
    `keeps_communication_free_pad_dims`, the pad dimensions) each device computes from its own shard."""
    operands, results = list(op.operands), list(op.results)
    in_shardings = [get_sharding(v) for v in operands]
    out_shardings = [get_sharding(v) for v in results]
    op_mesh = common_op_mesh(tuple(in_shardings + out_shardings), meshes)
    if op_mesh is None:
        return
    closed_in = closed_if_missing(in_shardings, [rank(v) for v in operands], op_mesh.name)
    closed_out = closed_if_missing(out_shardings, [rank(v) for v in results], op_mesh.name)
    if _shards_beyond_size(operands + results, closed_in + closed_out, op_mesh.mesh):
        # jaxlib's projection of such shardings departs from pysdy's here.
        _refuse(op, "pysdy does not implement replicating the permutation factors of an op with more shards than elements")
    if (
        op.name == "stablehlo.convolution"
        and versions.installed().convolution_keeps_spatial_factors_beyond_input
        and not all(is_fully_replicated(sharding) for sharding in closed_in + closed_out)
    ):
        # jaxlib's Shardy replicates factors of these beyond their permutation factors.
        _refuse(op, "pysdy does not implement replicating the permutation factors of a sharded convolution")
    projection = ShardingProjection.build(closed_in, closed_out, rule, op_mesh.mesh)
    updated_operands, updated_results = [False] * len(operands), [False] * len(results)
    for factor in rule.permutation_factors:
        if op.name == "stablehlo.slice" and in_shardings[0] != out_shardings[0]:
            # jaxlib's Shardy aborts the process here.
            _refuse(op, "the slice's operand and result are sharded differently")
        if op.name == "stablehlo.slice" or (keeps_communication_free_pad_dims and op.name == "stablehlo.pad"):
            if in_shardings[0] is None and versions.installed().permutation_factors_crash_on_missing_shardings:
                _refuse(op, f"the '{op.name}' operand has no sharding")
            if _COMMUNICATION_FREE_DIM[op.name](op, factor, closed_in[0], op_mesh.mesh):
                continue
        operand_changes, result_changes = projection.update_sharding(factor, [])
        updated_operands = [a or b for a, b in zip(updated_operands, operand_changes)]
        updated_results = [a or b for a, b in zip(updated_results, result_changes)]
    if any(updated_operands) or any(updated_results):
        if (
            op.name == "stablehlo.dynamic_update_slice"
            and versions.installed().permutation_factors_dus_result_follows_operand
            and updated_results[0]
            and not updated_operands[0]
        ):
            # jaxlib's Shardy leaves such a result sharded; pysdy does not know its rule there.
            _refuse(op, "pysdy does not implement replicating the result of a 'stablehlo.dynamic_update_slice' alone")
        if any(sharding.unreduced for sharding in closed_in + closed_out):
            # jaxlib's Shardy leaves some of these as they are.
            _refuse(op, "pysdy does not implement replicating the permutation factors of an op with unreduced axes")
        insert_reshards(
            op, in_shardings, out_shardings, projection, updated_operands, updated_results, rule, op_mesh, meshes
        )


@register_pass
@dataclasses.dataclass(frozen=True)
class ResolvePermutationFactorsPass(Pass):
    argument = _PASS
    summary = "Resolves sharding on dimensions mapped to kPermutation factors."
    anchor = MODULE

    enable_halo_exchange: bool = option(True, "Implement halo exchange logic for windowed operations.")
    partition_count: int = option(
        1, "The number of partitions (devices addressed by partition id).",
        line_field="permutation_factors_device_count_options",
    )
    replica_count: int = option(
        1, "The number of replicas (devices addressed by replica id).",
        line_field="permutation_factors_device_count_options",
    )
    rng_bit_generator_unsafe: bool = option(
        True, "Leave sharded rng bit generators as they are.", line_field="permutation_factors_rng_unsafe_option"
    )

    def run(self, op: ir.Operation) -> None:
        line = versions.installed()
        if not self.rng_bit_generator_unsafe and nested_ops(op, name="stablehlo.rng_bit_generator"):
            _refuse(op, "pysdy does not implement rng-bit-generator-unsafe=false")
        meshes = MeshTable(op)
        symbols = MeshSymbols(op)
        for nested in nested_ops(op):
            if not nested.context.is_registered_operation(nested.name):
                # jaxlib's Shardy crashes here: it asks each op for its dialect, which an unregistered one lacks.
                _refuse(nested, f"'{nested.name}' is an op of an unregistered dialect")
            if nested.has_trait(ir.IsTerminatorTrait) or not nested.name.startswith("stablehlo."):
                continue
            if nested.name == "stablehlo.reshape" and line.permutation_factors_halo_pad_slice_reshape:
                _check_reshape_left_alone(nested)
                continue
            rule = get_or_create_rule(nested)
            if rule is None or rule.is_custom or not rule.permutation_factors:
                continue
            if self.enable_halo_exchange and nested.name == "stablehlo.reverse":
                _resolve_reverse(nested, meshes, symbols)
                continue
            if (
                self.enable_halo_exchange
                and line.permutation_factors_halo_pad_slice_reshape
                and nested.name in _COMMUNICATION_FREE_DIM
            ):
                _check_pad_or_slice_needs_no_exchange(nested, meshes)
                continue
            _replicate_permutation_factors(nested, rule, meshes, line.permutation_factors_halo_pad_slice_reshape)
