"""Differential tests: pysdy's rules for stablehlo.gather and stablehlo.scatter
against jaxlib's C++ registry, on seeded random but valid ops.

The generators cover operand/start-indices batching dims, collapsed (inserted)
dims, offset (update window) dims placed anywhere in the result (updates),
index_vector_dim anywhere (or implicit, past the last dim), unsliced, sliced
and size-1 windows, and variadic scatter. Each draw is verified on its own and
invalid ones are skipped (each test checks enough remain).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from test_contraction_rules import (
    SIZES,
    check_against_oracle,
    function,
    ints,
    scalar_block,
    tensor,
    valid_functions,
)

INDEX_TYPES = ("i32", "i64")


@dataclass
class Indexing:
    """What gather and scatter share: the operand side and the indices."""

    operand_shape: list[int]
    operand_batching_dims: list[int]
    collapsed_dims: list[int]  # gather's collapsed_slice_dims, scatter's inserted_window_dims
    start_index_map: list[int]  # scatter's scatter_dims_to_operand_dims
    indices_shape: list[int]
    indices_batching_dims: list[int]
    index_vector_dim: int
    batch_sizes: list[int]  # the indices dims other than the index vector dim, in order
    window_dims: list[int]  # operand dims that are neither collapsed nor batching

    def slices_shape(self, rng: random.Random, window_sizes: list[int]) -> tuple[list[int], list[int]]:
        """(offset dims, shape) of the gather result / scatter updates: the window
        sizes at random sorted positions, the batch sizes in the others."""
        rank = len(window_sizes) + len(self.batch_sizes)
        offset_dims = sorted(rng.sample(range(rank), len(window_sizes)))
        windows, batches = iter(window_sizes), iter(self.batch_sizes)
        shape = [next(windows) if dim in offset_dims else next(batches) for dim in range(rank)]
        return offset_dims, shape


def random_indexing(rng: random.Random) -> Indexing:
    operand_shape = [rng.choice(SIZES) for _ in range(rng.randint(1, 4))]
    dims = list(range(len(operand_shape)))
    operand_batching = sorted(rng.sample(dims, rng.randint(0, min(2, len(dims)))))
    not_batching = [d for d in dims if d not in operand_batching]
    collapsed = sorted(rng.sample(not_batching, rng.randint(0, len(not_batching))))
    start_index_map = rng.sample(not_batching, rng.randint(0, len(not_batching)))

    # Indices batch dims: one per operand batching dim (same size), plus a few implicit ones.
    num_batch = len(operand_batching) + rng.randint(0, 2)
    batch_sizes = [rng.choice(SIZES) for _ in range(num_batch)]
    explicit_positions = rng.sample(range(num_batch), len(operand_batching))
    for position, operand_dim in zip(explicit_positions, operand_batching):
        batch_sizes[position] = operand_shape[operand_dim]

    if len(start_index_map) == 1 and rng.random() < 0.4:
        index_vector_dim = num_batch  # implicit: the index vector has size 1
        indices_shape = list(batch_sizes)
    else:
        index_vector_dim = rng.randint(0, num_batch)
        indices_shape = batch_sizes[:index_vector_dim] + [len(start_index_map)] + batch_sizes[index_vector_dim:]

    def indices_dim(position: int) -> int:
        return position if position < index_vector_dim else position + 1

    return Indexing(
        operand_shape=operand_shape,
        operand_batching_dims=operand_batching,
        collapsed_dims=collapsed,
        start_index_map=start_index_map,
        indices_shape=indices_shape,
        indices_batching_dims=[indices_dim(p) for p in explicit_positions],
        index_vector_dim=index_vector_dim,
        batch_sizes=batch_sizes,
        window_dims=[d for d in not_batching if d not in collapsed],
    )


def random_window_size(rng: random.Random, size: int) -> int:
    """Unsliced, a single element, or any slice."""
    return rng.choice((size, size, 1, rng.randint(0, size)))


def gen_gather(rng: random.Random, name: str) -> str:
    indexing = random_indexing(rng)
    slice_sizes = [
        random_window_size(rng, size) if dim in indexing.window_dims else rng.choice((1, 1, 0))
        for dim, size in enumerate(indexing.operand_shape)
    ]
    offset_dims, result_shape = indexing.slices_shape(rng, [slice_sizes[d] for d in indexing.window_dims])
    numbers = (
        f"#stablehlo.gather<offset_dims = {ints(offset_dims)}, "
        f"collapsed_slice_dims = {ints(indexing.collapsed_dims)}, "
        f"operand_batching_dims = {ints(indexing.operand_batching_dims)}, "
        f"start_indices_batching_dims = {ints(indexing.indices_batching_dims)}, "
        f"start_index_map = {ints(indexing.start_index_map)}, "
        f"index_vector_dim = {indexing.index_vector_dim}>"
    )
    sizes = ", ".join(map(str, slice_sizes))
    arg_types = [tensor(indexing.operand_shape), tensor(indexing.indices_shape, rng.choice(INDEX_TYPES))]
    result_type = tensor(result_shape)
    op = (
        f'"stablehlo.gather"(%arg0, %arg1) {{dimension_numbers = {numbers}, '
        f"indices_are_sorted = {rng.choice(('true', 'false'))}, slice_sizes = array<i64: {sizes}>}} "
        f": ({arg_types[0]}, {arg_types[1]}) -> {result_type}"
    )
    return function(name, arg_types, [result_type], op)


# How a scatter combines the current value with the update: keep either, or a binary op.
COMBINERS = ("set", "keep", "add", "multiply", "maximum", "minimum", "subtract", "and", "or", "xor")
ELEMENT_TYPES = ("f32", "i32", "bf16")
BOOLEAN_TYPES = ("i1", "i1", "i32")


def update_computation(rng: random.Random, combiners: list[str], scalars: list[str], crossed: bool):
    """(returned values, body) of a scatter's update computation over args
    %b0..%b{2n-1} (current values, then updates); sometimes an unused op comes first."""
    n = len(combiners)
    pairs = [(i, n + ((i + 1) % n if crossed else i)) for i in range(n)]
    body = "    %unused = stablehlo.constant dense<1> : tensor<i32>\n" if rng.random() < 0.2 else ""
    returned = []
    for i, (combiner, (current, update), scalar) in enumerate(zip(combiners, pairs, scalars)):
        if combiner in ("set", "keep"):
            returned.append(f"%b{update if combiner == 'set' else current}")
            continue
        lhs, rhs = (current, update) if rng.random() < 0.5 else (update, current)
        body += f"    %c{i} = stablehlo.{combiner} %b{lhs}, %b{rhs} : {scalar}\n"
        returned.append(f"%c{i}")
    return returned, body


def gen_scatter(rng: random.Random, name: str) -> str:
    indexing = random_indexing(rng)
    window_sizes = [random_window_size(rng, indexing.operand_shape[d]) for d in indexing.window_dims]
    update_window_dims, updates_shape = indexing.slices_shape(rng, window_sizes)
    numbers = (
        f"#stablehlo.scatter<update_window_dims = {ints(update_window_dims)}, "
        f"inserted_window_dims = {ints(indexing.collapsed_dims)}, "
        f"input_batching_dims = {ints(indexing.operand_batching_dims)}, "
        f"scatter_indices_batching_dims = {ints(indexing.indices_batching_dims)}, "
        f"scatter_dims_to_operand_dims = {ints(indexing.start_index_map)}, "
        f"index_vector_dim = {indexing.index_vector_dim}>"
    )
    num_inputs = rng.randint(1, 3)
    # Crossed pairs (result i combining current i with update i+1) need one element type.
    crossed = num_inputs > 1 and rng.random() < 0.15
    combiners = [rng.choice(COMBINERS)] * num_inputs if crossed or rng.random() < 0.6 else rng.choices(COMBINERS, k=num_inputs)
    element_types = [rng.choice(BOOLEAN_TYPES if c in ("and", "or", "xor") else ELEMENT_TYPES) for c in combiners]
    if crossed:
        element_types = element_types[:1] * num_inputs
    input_types = [tensor(indexing.operand_shape, t) for t in element_types]
    update_types = [tensor(updates_shape, t) for t in element_types]
    arg_types = input_types + [tensor(indexing.indices_shape, rng.choice(INDEX_TYPES))] + update_types
    scalars = [tensor([], t) for t in element_types]
    returned, body = update_computation(rng, combiners, scalars, crossed)
    region = scalar_block(scalars * 2, returned, scalars, body)
    operands = ", ".join(f"%arg{i}" for i in range(len(arg_types)))
    op = (
        f'"stablehlo.scatter"({operands}) ({region}) {{scatter_dimension_numbers = {numbers}, '
        f"indices_are_sorted = false, unique_indices = {rng.choice(('true', 'false'))}}} "
        f": ({', '.join(arg_types)}) -> ({', '.join(input_types)})"
    )
    return function(name, arg_types, input_types, op)


@pytest.mark.parametrize("draws", [150, pytest.param(400, marks=pytest.mark.slow)], ids=["150", "400"])
@pytest.mark.parametrize("conservative", [False, True], ids=["aggressive", "conservative"])
@pytest.mark.parametrize("generate, seed", [(gen_gather, 11), (gen_scatter, 23)], ids=["gather", "scatter"])
def test_generated_ops_match_oracle(generate, seed, conservative, draws):
    functions = valid_functions(generate, seed, draws)
    assert len(functions) >= 0.9 * draws, f"only {len(functions)} of {draws} draws were valid"
    check_against_oracle(functions, conservative)
