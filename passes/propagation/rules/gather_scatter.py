"""Rules of stablehlo.gather and stablehlo.scatter (variadic): batch, offset, collapsed and index-vector factors."""

from __future__ import annotations

from typing import Callable, Sequence

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import NO_DIM, RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for

# add(input_dim, indices_dim, slices_dim, size, kind, blocked): places one factor.
AddFactor = Callable[[int, int, int, int, FactorKind, bool], None]

# Binary ops that combine scattered values like an all-reduce would; and/or only on i1.
_COMBINING_OPS = {"stablehlo.add", "stablehlo.multiply", "stablehlo.maximum", "stablehlo.minimum"}
_BOOLEAN_COMBINING_OPS = {"stablehlo.and", "stablehlo.or"}


def _add_gather_scatter_factors(
    add: AddFactor,
    is_scatter: bool,
    input_shape: Sequence[int],
    slices_shape: Sequence[int],
    indices_shape: Sequence[int],
    index_vector_dim: int,
    offset_dims: Sequence[int],
    collapsed_dims: Sequence[int],
    input_batching_dims: Sequence[int],
    indices_batching_dims: Sequence[int],
    implicit_batch_kind: FactorKind = FactorKind.PASS_THROUGH,
) -> None:
    """The factors shared by gather (slices = result) and scatter (slices = updates).

    Walks the slices dims: an offset dim matches the next input dim that is
    neither collapsed nor a batching dim; any other slices dim is a batch dim
    matching the next indices dim (skipping the index vector dim), and also an
    input dim when it is an explicit batching dim (else it is implicit and of
    `implicit_batch_kind`). Then come the collapsed input dims and the index
    vector dim.
    """
    input_dim = 0
    batch_position = 0
    for slices_dim, slices_size in enumerate(slices_shape):
        if slices_dim in offset_dims:
            while input_dim in collapsed_dims or input_dim in input_batching_dims:
                input_dim += 1
            input_size = input_shape[input_dim]
            if input_size == slices_size:  # unsliced: shared
                add(input_dim, NO_DIM, slices_dim, input_size, FactorKind.PASS_THROUGH, False)
            elif is_scatter:
                add(input_dim, NO_DIM, NO_DIM, input_size, FactorKind.NEED_REPLICATION, False)
                add(NO_DIM, NO_DIM, slices_dim, slices_size, FactorKind.NEED_REPLICATION, False)
            elif slices_size == 1:
                # A sharded input dim is kept by all-reducing the gathered result.
                add(input_dim, NO_DIM, NO_DIM, input_size, FactorKind.REDUCTION, False)
                add(NO_DIM, NO_DIM, slices_dim, slices_size, FactorKind.NEED_REPLICATION, False)
            else:
                add(input_dim, NO_DIM, slices_dim, input_size, FactorKind.NEED_REPLICATION, True)
            input_dim += 1
        else:
            indices_dim = batch_position if batch_position < index_vector_dim else batch_position + 1
            is_explicit_batch = indices_dim in indices_batching_dims
            input_batch_dim = (
                input_batching_dims[list(indices_batching_dims).index(indices_dim)]
                if is_explicit_batch
                else NO_DIM
            )
            kind = FactorKind.PASS_THROUGH if is_explicit_batch else implicit_batch_kind
            add(input_batch_dim, indices_dim, slices_dim, slices_size, kind, False)
            batch_position += 1

    for collapsed_dim in collapsed_dims:
        size = input_shape[collapsed_dim]
        if is_scatter:
            kind = FactorKind.PASS_THROUGH
        else:
            # A sharded collapsed dim is kept by all-reducing the gathered result.
            kind = FactorKind.NEED_REPLICATION if size == 1 else FactorKind.REDUCTION
        add(collapsed_dim, NO_DIM, NO_DIM, size, kind, False)

    if index_vector_dim < len(indices_shape):
        add(NO_DIM, index_vector_dim, NO_DIM, indices_shape[index_vector_dim],
            FactorKind.NEED_REPLICATION, False)


def _scatter_combines_like_a_reduction(scatter) -> bool:
    """Whether result i of the update computation is `op(current_i, update_i)` (either
    order) for one and the same op from `_COMBINING_OPS`/`_BOOLEAN_COMBINING_OPS`."""
    block = scatter.regions[0].blocks[0]
    arguments = list(block.arguments)
    num_inputs = len(arguments) // 2
    returned = list(block.operations[len(block.operations) - 1].operands)
    op_names = set()
    for index, value in enumerate(returned):
        if not isinstance(value, ir.OpResult):
            return False
        combiner = value.owner
        name = combiner.name
        element_type = value.type.element_type
        is_boolean = isinstance(element_type, ir.IntegerType) and element_type.width == 1
        if name not in _COMBINING_OPS and not (name in _BOOLEAN_COMBINING_OPS and is_boolean):
            return False
        pair = {arguments[index], arguments[num_inputs + index]}
        if len(combiner.operands) != 2 or set(combiner.operands) != pair:
            return False
        op_names.add(name)
    return len(op_names) == 1


@rule_for("stablehlo.gather")
def gather(op, conservative):
    """Operands are (operand, start_indices)."""
    numbers = stablehlo.GatherDimensionNumbers(op.attributes["dimension_numbers"])
    builder = RuleBuilder.for_op(op)

    def add(input_dim, indices_dim, slices_dim, size, kind, blocked):
        builder.add_factor([input_dim, indices_dim], [slices_dim], size, kind, blocked)

    _add_gather_scatter_factors(
        add,
        is_scatter=False,
        input_shape=shape_of(op.operands[0]),
        slices_shape=shape_of(op.results[0]),
        indices_shape=shape_of(op.operands[1]),
        index_vector_dim=numbers.index_vector_dim,
        offset_dims=list(numbers.offset_dims),
        collapsed_dims=list(numbers.collapsed_slice_dims),
        input_batching_dims=list(numbers.operand_batching_dims),
        indices_batching_dims=list(numbers.start_indices_batching_dims),
    )
    return builder.build()


@rule_for("stablehlo.scatter")
def scatter(op, conservative):
    """Operands are (inputs..., scatter_indices, updates...); results mirror the inputs."""
    numbers = stablehlo.ScatterDimensionNumbers(op.attributes["scatter_dimension_numbers"])
    num_inputs = len(op.results)
    builder = RuleBuilder.for_op(op)

    def add(input_dim, indices_dim, slices_dim, size, kind, blocked):
        operand_dims = [input_dim] * num_inputs + [indices_dim] + [slices_dim] * num_inputs
        builder.add_factor(operand_dims, [input_dim] * num_inputs, size, kind, blocked)

    _add_gather_scatter_factors(
        add,
        is_scatter=True,
        input_shape=shape_of(op.operands[0]),
        slices_shape=shape_of(op.operands[num_inputs + 1]),
        indices_shape=shape_of(op.operands[num_inputs]),
        index_vector_dim=numbers.index_vector_dim,
        offset_dims=list(numbers.update_window_dims),
        collapsed_dims=list(numbers.inserted_window_dims),
        input_batching_dims=list(numbers.input_batching_dims),
        indices_batching_dims=list(numbers.scatter_indices_batching_dims),
        # Updates scattered to the same place from several devices can be
        # combined by an all-reduce only if the update computation is one.
        implicit_batch_kind=(
            FactorKind.REDUCTION if _scatter_combines_like_a_reduction(op) else FactorKind.NEED_REPLICATION
        ),
    )
    return builder.build()
