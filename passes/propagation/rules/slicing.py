"""Rules of stablehlo.slice, pad, dynamic_slice and dynamic_update_slice: unchanged dimensions pass through."""

from pysdy import versions
from pysdy.dialects.sdy import FactorKind
from pysdy.passes.common.constants import is_constant
from pysdy.passes.propagation.rules.builder import NO_DIM, RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


@rule_for("stablehlo.slice")
def static_slice(op, conservative):
    # Static start indices let a resized dimension stay sharded by shifting data (a permutation); conservative
    # propagation blocks it.
    return (
        RuleBuilder.for_op(op)
        .add_pointwise_with_kind_for_mismatch(
            shape_of(op.operand),
            shape_of(op.result),
            FactorKind.PERMUTATION,
            mismatch_blocked=conservative,
        )
        .build()
    )


@rule_for("stablehlo.pad")
def pad(op, conservative):
    # Static padding lets a padded dimension stay sharded by shifting data (a permutation); conservative
    # propagation blocks it where the size changes.
    in_shape = shape_of(op.operand)
    resized = [in_size != out_size for in_size, out_size in zip(in_shape, shape_of(op.result))]
    if versions.installed().pad_permutes_every_padded_dim:
        paddings = zip(*(op.attributes[name] for name in ("edge_padding_low", "edge_padding_high", "interior_padding")))
        permuted = [any(padding) for padding in paddings]
    else:
        permuted = resized
    builder = RuleBuilder.for_op(op)
    for dim, size in enumerate(in_shape):
        if permuted[dim]:
            builder.add_factor_to_all(dim, size, FactorKind.PERMUTATION, blocked=conservative and resized[dim])
        else:
            builder.add_factor_to_all(dim, size)
    return builder.build()


@rule_for("stablehlo.dynamic_slice")
def dynamic_slice(op, conservative):
    return (
        RuleBuilder.for_op(op)
        .add_pointwise_with_kind_for_mismatch(
            shape_of(op.operand),
            shape_of(op.result),
            FactorKind.NEED_REPLICATION,
            mismatch_blocked=True,
        )
        .build()
    )


@rule_for("stablehlo.dynamic_update_slice", reads_producers=True)
def dynamic_update_slice(op, conservative):
    operand_shape = shape_of(op.operand)
    update_shape = shape_of(op.update)
    no_indices = [NO_DIM] * (len(op.operands) - 2)
    if versions.installed().dynamic_update_slice_permutes_sliced_dims:
        # Each shard of the update is moved to where it lands in the operand's shards.
        operand_kind = update_kind = FactorKind.PERMUTATION
    else:
        # Where every start index is a constant, the update may stay sharded along a sliced dimension too:
        # the partitioner knows which shard of the operand each shard of the update lands in.
        operand_kind = FactorKind.PASS_THROUGH
        update_kind = (
            FactorKind.PASS_THROUGH if all(is_constant(index) for index in op.start_indices)
            else FactorKind.NEED_REPLICATION
        )
    builder = RuleBuilder.for_op(op)
    for dim, (operand_size, update_size) in enumerate(zip(operand_shape, update_shape)):
        if operand_size == update_size:
            builder.add_factor_to_all(dim, operand_size)
            continue
        # A sliced dimension: the operand and result stay sharded (each device
        # updates its own shard); the update has a factor of its own.
        builder.add_factor([dim, NO_DIM] + no_indices, [dim], operand_size, operand_kind)
        builder.add_factor([NO_DIM, dim] + no_indices, [NO_DIM], update_size, update_kind)
    return builder.build()
