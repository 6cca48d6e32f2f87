"""Random valid StableHLO modules with sdy shardings, drawn by hypothesis or from a seed, for propagation tests.

One generator, two sources of choices: `modules()` is a hypothesis strategy
(its examples shrink towards fewer, simpler ops and fewer shardings) and
`random_module(seed)` gives the same kind of module from `random.Random(seed)`.
A module has one `sdy.mesh` of 1-3 axes, a `func.func @main` of 1-4 arguments
and 3-25 ops forming a chain or a DAG, with random shardings on some
arguments, results and `sdy.sharding_constraint`s. With `host_callbacks`, the
module also has two maximal meshes (device ids, no axes), as JAX gives host
callbacks: side-effecting custom calls on them, and some shardings on them.
With `no_dead_values`, every value no op uses is returned, so propagation
erases no op as dead. Shapes are computed, so every module parses and verifies.
`python random_modules.py SEED` prints one.
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
import sys
from typing import Callable, Sequence, TypeVar

from hypothesis import strategies as st

T = TypeVar("T")

# Earlier entries are what examples shrink towards.
AXIS_NAMES = ("x", "y", "z")
AXIS_SIZES = (2, 4, 3)
DIM_SIZES = (2, 4, 8, 6, 12, 16, 1, 3)
MAX_RANK = 4


class Choices:
    """Where the generator's decisions come from; subclasses supply `integer`."""

    def integer(self, low: int, high: int) -> int:
        raise NotImplementedError

    def chance(self, percent: int) -> bool:
        return self.integer(0, 99) >= 100 - percent

    def pick(self, options: Sequence[T]) -> T:
        return options[self.integer(0, len(options) - 1)]

    def sample(self, options: Sequence[T], count: int) -> list[T]:
        """`count` distinct options in a random order."""
        remaining = list(options)
        return [remaining.pop(self.integer(0, len(remaining) - 1)) for _ in range(count)]


class SeededChoices(Choices):
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


class DrawnChoices(Choices):
    def __init__(self, draw: Callable):
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))


@dataclasses.dataclass(frozen=True)
class Value:
    name: str
    shape: tuple[int, ...]


def tensor_type(shape: tuple[int, ...], element: str = "f32") -> str:
    return "tensor<" + "".join(f"{size}x" for size in shape) + element + ">"


class ModuleBuilder:
    """Builds one module's text while tracking every value's shape."""

    def __init__(self, choices: Choices, host_callbacks: bool = False, no_dead_values: bool = False):
        self.choices = choices
        self.host_callbacks = host_callbacks
        self.no_dead_values = no_dead_values
        self.mesh = self.random_mesh()
        self.arguments: list[Value] = []
        self.values: list[Value] = []
        self.used: set[str] = set()
        self.lines: list[str] = []
        self.counter = 0

    # ----- mesh and shardings -----

    def random_mesh(self) -> list[tuple[str, int]]:
        count = self.choices.integer(1, 3)
        sizes = [self.choices.pick(AXIS_SIZES) for _ in range(count)]
        if self.choices.chance(15):
            sizes[self.choices.integer(0, count - 1)] = 1
        return list(zip(AXIS_NAMES, sizes))

    def random_sharding(self, shape: tuple[int, ...]) -> str:
        """`<@mesh, [dims...]>` with open/closed dims, several axes per dim, replicated axes, priorities;
        with host callbacks, sometimes a maximal sharding instead."""
        if self.host_callbacks and self.choices.chance(20):
            return self.maximal_sharding()
        free = [name for name, _ in self.mesh]
        dims = []
        for _ in shape:
            axes = self.choices.sample(free, min(len(free), self.choices.pick((0, 1, 1, 2))))
            for axis in axes:
                free.remove(axis)
            is_open = self.choices.chance(30)
            entries = [f'"{axis}"' for axis in axes] + (["?"] if is_open else [])
            priority = f"p{self.choices.integer(0, 1)}" if (axes or is_open) and self.choices.chance(20) else ""
            dims.append("{" + ", ".join(entries) + "}" + priority)
        replicated = [axis for axis in free if self.choices.chance(20)]
        text = "<@mesh, [" + ", ".join(dims) + "]"
        if replicated:
            text += ", replicated={" + ", ".join(f'"{axis}"' for axis in replicated) + "}"
        return text + ">"

    def maximal_sharding(self) -> str:
        return f"<@maximal_mesh_{self.choices.integer(0, 1)}, []>"

    # ----- values -----

    def operand(self) -> Value:
        """A recent value most of the time (chains), any value otherwise (DAGs)."""
        if self.choices.chance(40):
            return self.choices.pick(self.values)
        return self.choices.pick(self.values[::-1][:3])

    def emit(self, shape: tuple[int, ...], operands: Sequence[Value], text: str, reusable: bool = True) -> Value:
        """Appends `%new = text`, where text names the operands $0, $1, ...; later ops may use %new if reusable."""
        self.used.update(operand.name for operand in operands)
        self.counter += 1
        result = Value(f"%v{self.counter}", shape)
        if reusable:
            self.values.append(result)
        self.lines.append(f"{result.name} = " + re.sub(r"\$(\d)", lambda m: operands[int(m[1])].name, text))
        return result

    def random_shape(self) -> tuple[int, ...]:
        return tuple(self.choices.pick(DIM_SIZES) for _ in range(self.choices.integer(1, 3)))

    # ----- ops; each returns None when the drawn operands do not fit -----

    def binary(self) -> Value | None:
        lhs = self.operand()
        rhs = self.choices.pick([value for value in self.values if value.shape == lhs.shape])
        kind = self.choices.pick(("add", "multiply"))
        return self.emit(lhs.shape, [lhs, rhs], f"stablehlo.{kind} $0, $1 : {tensor_type(lhs.shape)}")

    def unary(self) -> Value | None:
        operand = self.operand()
        kind = self.choices.pick(("negate", "abs"))
        return self.emit(operand.shape, [operand], f"stablehlo.{kind} $0 : {tensor_type(operand.shape)}")

    def compare_select(self) -> Value | None:
        lhs = self.operand()
        rhs = self.choices.pick([value for value in self.values if value.shape == lhs.shape])
        f32, i1 = tensor_type(lhs.shape), tensor_type(lhs.shape, "i1")
        direction = self.choices.pick(("GT", "LT", "EQ"))
        compare = f"stablehlo.compare {direction}, $0, $1 : ({f32}, {f32}) -> {i1}"
        predicate = self.emit(lhs.shape, [lhs, rhs], compare, reusable=False)
        return self.emit(lhs.shape, [predicate, lhs, rhs], f"stablehlo.select $0, $1, $2 : {i1}, {f32}")

    def dot_general(self) -> Value | None:
        lhs, rhs = self.operand(), self.choices.pick(self.values)
        pairs = [(i, j) for i, a in enumerate(lhs.shape) for j, b in enumerate(rhs.shape) if a == b]
        chosen = self.choices.sample(pairs, min(len(pairs), self.choices.integer(1, 3)))
        disjoint = []
        for i, j in chosen:
            if all(i != k and j != m for k, m in disjoint):
                disjoint.append((i, j))
        batch_count = self.choices.integer(0, min(1, len(disjoint)))
        batch, contracting = disjoint[:batch_count], disjoint[batch_count:]
        lhs_used = {i for i, _ in disjoint}
        rhs_used = {j for _, j in disjoint}
        shape = (
            tuple(lhs.shape[i] for i, _ in batch)
            + tuple(size for i, size in enumerate(lhs.shape) if i not in lhs_used)
            + tuple(size for j, size in enumerate(rhs.shape) if j not in rhs_used)
        )
        if not 1 <= len(shape) <= MAX_RANK:
            return None
        dims = ""
        if batch:
            dims += f", batching_dims = {[i for i, _ in batch]} x {[j for _, j in batch]}"
        dims += f", contracting_dims = {[i for i, _ in contracting]} x {[j for _, j in contracting]}"
        types = f"({tensor_type(lhs.shape)}, {tensor_type(rhs.shape)}) -> {tensor_type(shape)}"
        return self.emit(shape, [lhs, rhs], f"stablehlo.dot_general $0, $1{dims} : {types}")

    def reshape(self) -> Value | None:
        operand = self.operand()
        shape = list(operand.shape)
        for _ in range(self.choices.integer(1, 2)):
            kind = self.choices.pick(("merge", "split", "unit"))
            if kind == "merge" and len(shape) >= 2:
                i = self.choices.integer(0, len(shape) - 2)
                shape[i : i + 2] = [shape[i] * shape[i + 1]]
            elif kind == "split":
                i = self.choices.integer(0, len(shape) - 1)
                factors = [f for f in range(2, shape[i]) if shape[i] % f == 0]
                if factors:
                    factor = self.choices.pick(factors)
                    shape[i : i + 1] = [factor, shape[i] // factor]
            elif kind == "unit":
                if 1 in shape and len(shape) > 1:
                    shape.remove(1)
                else:
                    shape.insert(self.choices.integer(0, len(shape)), 1)
        shape = tuple(shape)
        if shape == operand.shape or not 1 <= len(shape) <= MAX_RANK:
            return None
        return self.emit(shape, [operand], f"stablehlo.reshape $0 : ({tensor_type(operand.shape)}) -> {tensor_type(shape)}")

    def transpose(self) -> Value | None:
        operand = self.operand()
        permutation = self.choices.sample(range(len(operand.shape)), len(operand.shape))
        shape = tuple(operand.shape[d] for d in permutation)
        types = f"({tensor_type(operand.shape)}) -> {tensor_type(shape)}"
        return self.emit(shape, [operand], f"stablehlo.transpose $0, dims = {permutation} : {types}")

    def broadcast_in_dim(self) -> Value | None:
        operand = self.operand()
        rank = len(operand.shape) + self.choices.integer(0, MAX_RANK - len(operand.shape))
        positions = sorted(self.choices.sample(range(rank), len(operand.shape)))
        shape = [self.choices.pick(DIM_SIZES) for _ in range(rank)]
        for position, size in zip(positions, operand.shape):
            shape[position] = size if size != 1 or self.choices.chance(50) else shape[position]
        shape = tuple(shape)
        types = f"({tensor_type(operand.shape)}) -> {tensor_type(shape)}"
        return self.emit(shape, [operand], f"stablehlo.broadcast_in_dim $0, dims = {positions} : {types}")

    def reduce(self) -> Value | None:
        operand = self.operand()
        if len(operand.shape) < 2:
            return None
        dims = sorted(self.choices.sample(range(len(operand.shape)), self.choices.integer(1, len(operand.shape) - 1)))
        shape = tuple(size for d, size in enumerate(operand.shape) if d not in dims)
        zero = self.emit((), [], "stablehlo.constant dense<0.000000e+00> : tensor<f32>", reusable=False)
        types = f"({tensor_type(operand.shape)}, tensor<f32>) -> {tensor_type(shape)}"
        return self.emit(
            shape, [operand, zero], f"stablehlo.reduce($0 init: $1) applies stablehlo.add across dimensions = {dims} : {types}"
        )

    def concatenate(self) -> Value | None:
        first = self.operand()
        dim = self.choices.integer(0, len(first.shape) - 1)

        def fits(value: Value) -> bool:
            return len(value.shape) == len(first.shape) and all(
                a == b for d, (a, b) in enumerate(zip(value.shape, first.shape)) if d != dim
            )

        operands = [first] + [self.choices.pick([v for v in self.values if fits(v)]) for _ in range(self.choices.integer(1, 2))]
        shape = tuple(sum(v.shape[d] for v in operands) if d == dim else size for d, size in enumerate(first.shape))
        names = ", ".join(f"${k}" for k in range(len(operands)))
        types = f"({', '.join(tensor_type(v.shape) for v in operands)}) -> {tensor_type(shape)}"
        return self.emit(shape, operands, f"stablehlo.concatenate {names}, dim = {dim} : {types}")

    def slice(self) -> Value | None:
        operand = self.operand()
        ranges, shape = [], []
        for size in operand.shape:
            start, limit, stride = 0, size, 1
            if size > 1 and self.choices.chance(40):
                start = self.choices.integer(0, size - 1)
                limit = self.choices.integer(start + 1, size)
                stride = self.choices.pick((1, 2))
            ranges.append(f"{start}:{limit}" + (f":{stride}" if stride != 1 else ""))
            shape.append(math.ceil((limit - start) / stride))
        shape = tuple(shape)
        types = f"({tensor_type(operand.shape)}) -> {tensor_type(shape)}"
        return self.emit(shape, [operand], f"stablehlo.slice $0 [{', '.join(ranges)}] : {types}")

    def host_callback(self) -> Value | None:
        operand = self.operand()
        sharding = f"#sdy.sharding_per_value<[{self.maximal_sharding()}]>"
        types = f"({tensor_type(operand.shape)}) -> {tensor_type(operand.shape)}"
        return self.emit(
            operand.shape,
            [operand],
            f"stablehlo.custom_call @xla_ffi_python_cpu_callback($0) {{has_side_effect = true, sdy.sharding = {sharding}}} : {types}",
        )

    def sharding_constraint(self, operand: Value) -> Value:
        sharding = self.random_sharding(operand.shape)
        return self.emit(operand.shape, [operand], f"sdy.sharding_constraint $0 {sharding} : {tensor_type(operand.shape)}")

    # ----- the module -----

    def build(self) -> str:
        for index in range(self.choices.integer(1, 4)):
            reuse = self.arguments and self.choices.chance(40)
            shape = self.choices.pick(self.arguments).shape if reuse else self.random_shape()
            argument = Value(f"%arg{index}", shape)
            self.arguments.append(argument)
            self.values.append(argument)
        op_kinds = [
            self.binary, self.unary, self.dot_general, self.reshape, self.transpose,
            self.broadcast_in_dim, self.reduce, self.concatenate, self.slice, self.compare_select,
        ] + ([self.host_callback] * 2 if self.host_callbacks else [])
        op_count = self.choices.integer(3, 25)
        while op_count:
            result = self.choices.pick(op_kinds)()
            if result is None:
                continue
            op_count -= 1
            if self.choices.chance(15):
                self.sharding_constraint(result)
        if self.choices.chance(30):
            self.sharding_groups()
        return self.text()

    def sharding_groups(self) -> None:
        """1-2 `sdy.sharding_group`s of 2-3 same-shaped values each (arguments, results, constraints), distinct ids of 0-5."""
        ungrouped = list(self.values)
        for group_id in self.choices.sample(range(6), self.choices.integer(1, 2)):
            first = self.choices.pick(ungrouped)
            alike = [value for value in ungrouped if value.shape == first.shape and value != first]
            members = [first] + self.choices.sample(alike, min(len(alike), self.choices.integer(1, 2)))
            for member in members:
                ungrouped.remove(member)
                self.lines.append(f"sdy.sharding_group {member.name} group_id={group_id} : {tensor_type(member.shape)}")
            if not ungrouped:
                break

    def text(self) -> str:
        results = [self.values[-1]] + [
            value
            for value in self.values[:-1]
            if value not in self.arguments
            and (value.name not in self.used and (self.no_dead_values or self.choices.chance(70)) or self.choices.chance(5))
        ]
        arguments = ", ".join(f"{a.name}: {tensor_type(a.shape)}{self.sharding_attribute(a.shape, 50)}" for a in self.arguments)
        result_types = ", ".join(f"{tensor_type(r.shape)}{self.sharding_attribute(r.shape, 30)}" for r in results)
        body = "".join(f"    {line}\n" for line in self.lines)
        returned = ", ".join(r.name for r in results)
        returned_types = ", ".join(tensor_type(r.shape) for r in results)
        mesh = ", ".join(f'"{name}"={size}' for name, size in self.mesh)
        maximal_meshes = "".join(
            f"  sdy.mesh @maximal_mesh_{device} = <[], device_ids=[{device}]>\n" for device in (0, 1) if self.host_callbacks
        )
        return (
            "module {\n"
            f"  sdy.mesh @mesh = <[{mesh}]>\n"
            f"{maximal_meshes}"
            f"  func.func @main({arguments}) -> ({result_types}) {{\n"
            f"{body}"
            f"    return {returned} : {returned_types}\n"
            "  }\n"
            "}\n"
        )

    def sharding_attribute(self, shape: tuple[int, ...], percent: int) -> str:
        if not self.choices.chance(percent):
            return ""
        return f" {{sdy.sharding = #sdy.sharding{self.random_sharding(shape)}}}"


def random_module(seed: int, host_callbacks: bool = False, no_dead_values: bool = False) -> str:
    """The module for this seed: the plain-random twin of `modules()`."""
    return ModuleBuilder(SeededChoices(seed), host_callbacks, no_dead_values).build()


@st.composite
def modules(draw, host_callbacks: bool = False, no_dead_values: bool = False) -> str:
    """Hypothesis strategy of module texts."""
    return ModuleBuilder(DrawnChoices(draw), host_callbacks, no_dead_values).build()


if __name__ == "__main__":
    print(random_module(int(sys.argv[1]) if len(sys.argv) > 1 else 0))
