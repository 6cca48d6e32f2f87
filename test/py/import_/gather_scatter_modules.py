"""Random valid functions of gathers and scatters whose indices are built around iotas, for
`sdy-explicit-gather-scatter-batching`.

Each function has 1-3 gathers or scatters with random dimension numbers (index vector dim anywhere,
implicit or not, the batch dim indexed or not, collapsed or not). Their indices are a concatenate of
index vector parts or one whole tensor, each an argument, a constant or an iota (along dim 0 or not)
seen through reshapes, broadcasts, clamps, selects and JAX's negative-index wrap. Foldable and dead
constants are mixed in. Decisions come from a `random.Random`: hypothesis's `st.randoms()` or a seed.
`python gather_scatter_modules.py SEED` prints one.
"""

from __future__ import annotations

import dataclasses
import math
import random
import sys

from hypothesis import strategies as st


def tensor_type(shape: list[int], element: str) -> str:
    return "tensor<" + "".join(f"{size}x" for size in shape) + element + ">"


def _ints(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


@dataclasses.dataclass(frozen=True)
class Indexing:
    """What a gather and a scatter share: the operand dims the index vector addresses and those
    collapsed (inserted), the index vector dim, the indices' shape and its batch dims, and the slice
    (window) sizes."""

    index_map: list[int]
    collapsed: list[int]
    index_vector_dim: int
    indices_shape: list[int]
    batch_shape: list[int]
    slice_sizes: list[int]


class FunctionBuilder:
    """Builds one function's text, knowing every value's type."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.arguments: list[str] = []
        self.lines: list[str] = []
        self.results: list[tuple[str, str]] = []
        self.types: dict[str, str] = {}
        self.count = 0

    def argument(self, shape: list[int], element: str) -> str:
        name = f"%arg{len(self.arguments)}"
        self.arguments.append(tensor_type(shape, element))
        self.types[name] = self.arguments[-1]
        return name

    def value(self, text: str) -> str:
        """Appends `%vN = text`, whose result type is the last type `text` names, and returns `%vN`."""
        self.count += 1
        name = f"%v{self.count}"
        self.lines.append(f"{name} = {text}")
        self.types[name] = "tensor<" + text.rsplit("tensor<", 1)[1]
        return name

    def constant(self, shape: list[int], element: str, value: int) -> str:
        return self.value(f"stablehlo.constant dense<{value}> : {tensor_type(shape, element)}")

    def text(self, name: str) -> str:
        results = ", ".join(type_ for _, type_ in self.results)
        body = "\n".join("  " + line for line in self.lines)
        returned = ", ".join(value for value, _ in self.results)
        signature = ", ".join(f"%arg{i}: {type_}" for i, type_ in enumerate(self.arguments))
        return (
            f"func.func @{name}({signature}) -> ({results}) {{\n{body}\n"
            f"  return {returned} : {results}\n}}\n"
        )

    # ----- index parts -----

    def noise(self) -> None:
        """Constants that the rewrite driver folds, deduplicates or erases as dead."""
        element = self.rng.choice(("i32", "i64"))
        scalar = tensor_type([], element)
        first = self.constant([], element, self.rng.randint(0, 2))
        second = self.constant([], element, self.rng.randint(0, 2))
        total = self.value(f"stablehlo.add {first}, {second} : {scalar}")
        if self.rng.random() < 0.5:
            self.broadcast_scalar(total, element, tensor_type([3], element))

    def broadcast_scalar(self, scalar: str, element: str, type_: str) -> str:
        return self.value(f"stablehlo.broadcast_in_dim {scalar}, dims = [] : ({tensor_type([], element)}) -> {type_}")

    def iota(self, shape: list[int], element: str) -> str:
        """An iota of `shape`, along dim 0 most of the time, possibly through the ops the pass sees through."""
        type_, predicate_type, scalar = tensor_type(shape, element), tensor_type(shape, "i1"), tensor_type([], element)
        kind = self.rng.choice(("plain", "broadcast", "reshape", "clamp", "select", "wrap", "wrap"))
        dim = 0 if self.rng.random() < 0.85 else self.rng.randrange(len(shape))
        if kind == "plain" or (kind in ("broadcast", "reshape") and dim != 0):
            return self.value(f"stablehlo.iota dim = {dim} : {type_}")
        if kind in ("broadcast", "reshape"):
            # A 1-d iota over the batch, broadcast; or over all elements, reshaped.
            size = shape[0] if kind == "broadcast" else math.prod(shape)
            line_type = tensor_type([size], element)
            line = self.value(f"stablehlo.iota dim = 0 : {line_type}")
            if kind == "broadcast":
                return self.value(f"stablehlo.broadcast_in_dim {line}, dims = [0] : ({line_type}) -> {type_}")
            return self.value(f"stablehlo.reshape {line} : ({line_type}) -> {type_}")
        iota = self.value(f"stablehlo.iota dim = {dim} : {type_}")
        if kind == "clamp":
            low = self.constant([], element, 0)
            high = self.constant([], element, max(shape[0] - 1, 0))
            return self.value(f"stablehlo.clamp {low}, {iota}, {high} : ({scalar}, {type_}, {scalar}) -> {type_}")
        if kind == "select":
            predicate = self.argument(shape, "i1")
            other = self.argument(shape, element)
            on_true, on_false = (iota, other) if self.rng.random() < 0.5 else (other, iota)
            return self.value(f"stablehlo.select {predicate}, {on_true}, {on_false} : {predicate_type}, {type_}")
        # JAX's `x[i]` for a possibly negative i: select(i < 0, i + n, i).
        zero = self.broadcast_scalar(self.constant([], element, 0), element, type_)
        negative = self.value(f"stablehlo.compare LT, {iota}, {zero}, SIGNED : ({type_}, {type_}) -> {predicate_type}")
        size = self.broadcast_scalar(self.constant([], element, shape[0]), element, type_)
        wrapped = self.value(f"stablehlo.add {iota}, {size} : {type_}")
        return self.value(f"stablehlo.select {negative}, {wrapped}, {iota} : {predicate_type}, {type_}")

    def index_part(self, shape: list[int], element: str, iota_chance: float) -> str:
        roll = self.rng.random()
        if roll < iota_chance:
            return self.iota(shape, element)
        if roll < iota_chance + (1 - iota_chance) / 3:
            return self.constant(shape, element, self.rng.randint(0, 1))
        return self.argument(shape, element)

    def indices(self, dims: Indexing) -> str:
        """Indices: a concatenate along the index vector dim, or one tensor."""
        shape, index_vector_dim = dims.indices_shape, dims.index_vector_dim
        batch_component = dims.index_map.index(0) if 0 in dims.index_map else None
        element = self.rng.choice(("i32", "i64"))
        if index_vector_dim == len(shape) or self.rng.random() < 0.3:
            return self.index_part(shape, element, 0.8)
        components = shape[index_vector_dim]
        widths = []
        while sum(widths) < components:
            widths.append(1 if self.rng.random() < 0.8 else self.rng.randint(1, components - sum(widths)))
        parts, types = [], []
        for i, width in enumerate(widths):
            part_shape = list(shape)
            part_shape[index_vector_dim] = width
            types.append(tensor_type(part_shape, element))
            addresses_batch = batch_component is not None and sum(widths[:i]) <= batch_component < sum(widths[: i + 1])
            parts.append(self.index_part(part_shape, element, 0.85 if addresses_batch else 0.2))
        if len(parts) == 1:
            return parts[0]
        signature = f"({', '.join(types)}) -> {tensor_type(shape, element)}"
        return self.value(f"stablehlo.concatenate {', '.join(parts)}, dim = {index_vector_dim} : {signature}")

    # ----- gathers and scatters -----

    def indexing(self, operand_shape: list[int]) -> Indexing:
        rank = len(operand_shape)
        indexed = self.rng.sample(range(rank), self.rng.randint(1, rank))
        if 0 not in indexed and self.rng.random() < 0.6:
            indexed[self.rng.randrange(len(indexed))] = 0
        collapsed = sorted(d for d in indexed if self.rng.random() < 0.85)
        batch_shape = [operand_shape[0] if self.rng.random() < 0.85 else self.rng.randint(1, 5)]
        batch_shape += [self.rng.randint(1, 4) for _ in range(self.rng.choice((0, 0, 1, 2)))]
        implicit = len(indexed) == 1 and self.rng.random() < 0.3
        if implicit:
            index_vector_dim, indices_shape = len(batch_shape), batch_shape
        else:
            index_vector_dim = self.rng.randint(1, len(batch_shape)) if self.rng.random() < 0.95 else 0
            indices_shape = batch_shape[:index_vector_dim] + [len(indexed)] + batch_shape[index_vector_dim:]
            batch_shape = indices_shape[:index_vector_dim] + indices_shape[index_vector_dim + 1 :]
        sizes = [1 if d in collapsed else self.rng.randint(1, operand_shape[d]) for d in range(rank)]
        return Indexing(indexed, collapsed, index_vector_dim, indices_shape, batch_shape, sizes)

    def window_positions(self, dims: Indexing) -> tuple[list[int], list[int]]:
        """The result (or updates) shape and the sorted positions of its window dims."""
        windows = [size for d, size in enumerate(dims.slice_sizes) if d not in dims.collapsed]
        batch = dims.batch_shape
        positions = sorted(self.rng.sample(range(len(windows) + len(batch)), len(windows)))
        shape, window_iter, batch_iter = [], iter(windows), iter(batch)
        for i in range(len(windows) + len(batch)):
            shape.append(next(window_iter) if i in positions else next(batch_iter))
        return shape, positions

    def operand_shape(self) -> list[int]:
        return [self.rng.randint(1, 5) for _ in range(self.rng.randint(1, 3))]

    def gather(self) -> None:
        operand_shape = self.operand_shape()
        dims = self.indexing(operand_shape)
        operand = self.argument(operand_shape, "f32")
        indices = self.indices(dims)
        shape, offset_dims = self.window_positions(dims)
        numbers = []
        if offset_dims:
            numbers.append(f"offset_dims = {_ints(offset_dims)}")
        if dims.collapsed:
            numbers.append(f"collapsed_slice_dims = {_ints(dims.collapsed)}")
        numbers.append(f"start_index_map = {_ints(dims.index_map)}")
        numbers.append(f"index_vector_dim = {dims.index_vector_dim}")
        properties = [f"dimension_numbers = #stablehlo.gather<{', '.join(numbers)}>"]
        if self.rng.random() < 0.7:
            properties.append(f"indices_are_sorted = {self.rng.choice(('false', 'true'))}")
        properties.append(f"slice_sizes = array<i64: {', '.join(str(s) for s in dims.slice_sizes)}>")
        indices_type = self.types[indices]
        result_type = tensor_type(shape, "f32")
        result = self.value(
            f'"stablehlo.gather"({operand}, {indices}) <{{{", ".join(properties)}}}> '
            f": ({tensor_type(operand_shape, 'f32')}, {indices_type}) -> {result_type}"
        )
        self.results.append((result, result_type))

    def scatter(self) -> None:
        operand_shape = self.operand_shape()
        dims = self.indexing(operand_shape)
        inputs = [self.argument(operand_shape, "f32") for _ in range(self.rng.choice((1, 1, 2)))]
        indices = self.indices(dims)
        shape, window_dims = self.window_positions(dims)
        updates = [self.argument(shape, "f32") for _ in inputs]
        numbers = []
        if window_dims:
            numbers.append(f"update_window_dims = {_ints(window_dims)}")
        if dims.collapsed:
            numbers.append(f"inserted_window_dims = {_ints(dims.collapsed)}")
        numbers.append(f"scatter_dims_to_operand_dims = {_ints(dims.index_map)}")
        numbers.append(f"index_vector_dim = {dims.index_vector_dim}")
        properties = []
        if self.rng.random() < 0.7:
            properties.append(f"indices_are_sorted = {self.rng.choice(('false', 'true'))}")
        properties.append(f"scatter_dimension_numbers = #stablehlo.scatter<{', '.join(numbers)}>")
        if self.rng.random() < 0.7:
            properties.append(f"unique_indices = {self.rng.choice(('false', 'true'))}")
        scalar = tensor_type([], "f32")
        count = len(inputs)
        block_arguments = ", ".join(f"%s{i}: {scalar}" for i in range(2 * count))
        sums = [f"%t{i} = stablehlo.add %s{i}, %s{i + count} : {scalar}" for i in range(count)]
        returned = ", ".join(f"%t{i}" for i in range(count))
        region = "\n".join(
            [f"  ^bb0({block_arguments}):"]
            + ["    " + line for line in sums]
            + [f"    stablehlo.return {returned} : {', '.join([scalar] * count)}", "  }"]
        )
        operand_type = tensor_type(operand_shape, "f32")
        result_types = ", ".join([operand_type] * count)
        operand_types = ", ".join([operand_type] * count + [self.types[indices]] + [tensor_type(shape, "f32")] * count)
        attributes = ' {mhlo.frontend_attributes = {tag = "s"}}' if self.rng.random() < 0.2 else ""
        self.count += 1
        name = f"%v{self.count}"
        self.lines.append(
            f'{name}:{count} = "stablehlo.scatter"({", ".join(inputs + [indices] + updates)}) '
            f'<{{{", ".join(properties)}}}> ({{\n{region}){attributes} : ({operand_types}) -> ({result_types})'
        )
        for i in range(count):
            self.results.append((f"{name}#{i}", operand_type))


def random_function(rng: random.Random, name: str = "main") -> str:
    builder = FunctionBuilder(rng)
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.4:
            builder.noise()
        if rng.random() < 0.6:
            builder.gather()
        else:
            builder.scatter()
    return builder.text(name)


def functions() -> st.SearchStrategy[str]:
    """Hypothesis strategy of random functions (as module text)."""
    return st.randoms(use_true_random=False).map(random_function)


if __name__ == "__main__":
    print(random_function(random.Random(int(sys.argv[1]))))
