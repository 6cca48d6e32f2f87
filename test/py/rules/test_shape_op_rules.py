"""Differential tests of the shape and data-movement op rules against jaxlib's C++ registry.

Each test draws many random ops from a seeded generator, writes them into one
function (one oracle call per module) and checks that every op gets the same
printed rule from pysdy as from the C++ registry.
"""

from __future__ import annotations

import math
import random

import pytest
from oracle import assert_rules_match, cpp_rules, python_rules

from pysdy import versions

SEEDS = range(8)


def tensor(shape, element="f32") -> str:
    return f"tensor<{''.join(f'{size}x' for size in shape)}{element}>"


def i64_array(values) -> str:
    return f"array<i64: {', '.join(map(str, values))}>" if values else "array<i64>"


class Function:
    """Collects arguments and generic-form ops into the text of a one-function module."""

    def __init__(self):
        self.arguments: list[str] = []
        self.lines: list[str] = []
        self._count = 0

    def argument(self, type_: str) -> str:
        self.arguments.append(type_)
        return f"%arg{len(self.arguments) - 1}"

    def op(self, name: str, operands, attributes: str, result_types) -> str:
        value = f"%v{self._count}"
        self._count += 1
        operand_types = ", ".join(type_ for _, type_ in operands)
        results = f"{value}:{len(result_types)}" if len(result_types) > 1 else value
        self.lines.append(
            f'  {results} = "{name}"({", ".join(v for v, _ in operands)}) {{{attributes}}}'
            f" : ({operand_types}) -> ({', '.join(result_types)})"
        )
        return value

    def text(self) -> str:
        arguments = ", ".join(f"%arg{i}: {type_}" for i, type_ in enumerate(self.arguments))
        return "func.func @f(" + arguments + ") {\n" + "\n".join(self.lines) + "\n  return\n}\n"


def random_shape(rng: random.Random, max_rank=4, sizes=(1, 2, 3, 4, 5, 6, 8)) -> list[int]:
    return [rng.choice(sizes) for _ in range(rng.randint(0, max_rank))]


def assert_both_modes_match(function: Function) -> None:
    text = function.text()
    assert_rules_match(text, conservative=False)
    assert_rules_match(text, conservative=True)


# --- reshape -----------------------------------------------------------------


def random_grouping(rng: random.Random, factors: list[int]) -> list[int]:
    """The product of `factors` split into dimensions at random, with some size-1 dimensions."""
    factors = factors[:]
    rng.shuffle(factors)
    cuts = sorted(rng.sample(range(1, len(factors)), rng.randint(0, max(0, len(factors) - 1))))
    shape = [math.prod(factors[a:b]) for a, b in zip([0] + cuts, cuts + [len(factors)])] if factors else []
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        shape.insert(rng.randint(0, len(shape)), 1)
    return shape


RESHAPE_CASES = [
    ([6], [2, 3]),
    ([6], [3, 2]),
    ([2, 3], [3, 2]),
    ([12, 10], [8, 15]),
    ([8, 15], [12, 10]),
    ([4, 6, 10], [5, 12, 4]),
    ([], [1, 1]),
    ([1, 1], []),
    ([], []),
    ([1], []),
    ([0, 4], [4, 0]),
    ([3, 0], [0]),
    ([1, 6, 1], [2, 1, 3]),
    ([9, 4], [6, 6]),
    ([10, 21], [14, 15]),
    ([2, 2, 2, 2], [16]),
    ([16], [2, 2, 2, 2]),
    ([35], [5, 7]),
    ([7, 5], [5, 7]),
]


def test_reshape_named_cases():
    function = Function()
    for in_shape, out_shape in RESHAPE_CASES:
        operand = function.argument(tensor(in_shape))
        function.op("stablehlo.reshape", [(operand, tensor(in_shape))], "", [tensor(out_shape)])
    assert_rules_match(function.text())


@pytest.mark.parametrize("seed", range(12))
def test_reshape_random(seed):
    rng = random.Random(seed)
    function = Function()
    for _ in range(60):
        factors = [rng.choice([2, 2, 2, 3, 3, 4, 5, 6, 7, 9]) for _ in range(rng.randint(0, 6))]
        in_shape, out_shape = random_grouping(rng, factors), random_grouping(rng, factors)
        operand = function.argument(tensor(in_shape))
        function.op("stablehlo.reshape", [(operand, tensor(in_shape))], "", [tensor(out_shape)])
    assert_rules_match(function.text())


# --- broadcast_in_dim, transpose, reverse, reduce_precision ---------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_broadcast_in_dim(seed):
    rng = random.Random(seed)
    function = Function()
    for _ in range(40):
        in_shape = random_shape(rng, max_rank=3)
        out_rank = len(in_shape) + rng.randint(0, 2)
        dims = rng.sample(range(out_rank), len(in_shape))
        if rng.random() < 0.5:
            dims.sort()
        out_shape = [rng.choice([1, 2, 3, 7]) for _ in range(out_rank)]
        for in_dim, out_dim in enumerate(dims):
            stretched = in_shape[in_dim] == 1 and rng.random() < 0.6
            out_shape[out_dim] = rng.choice([2, 5]) if stretched else in_shape[in_dim]
        operand = function.argument(tensor(in_shape))
        function.op(
            "stablehlo.broadcast_in_dim",
            [(operand, tensor(in_shape))],
            f"broadcast_dimensions = {i64_array(dims)}",
            [tensor(out_shape)],
        )
    assert_rules_match(function.text())


@pytest.mark.parametrize("seed", SEEDS)
def test_transpose_reverse_reduce_precision(seed):
    rng = random.Random(seed)
    function = Function()
    for _ in range(20):
        shape = random_shape(rng)
        operand = (function.argument(tensor(shape)), tensor(shape))
        permutation = rng.sample(range(len(shape)), len(shape))
        permuted = [shape[d] for d in permutation]
        function.op("stablehlo.transpose", [operand], f"permutation = {i64_array(permutation)}", [tensor(permuted)])
        reversed_dims = sorted(rng.sample(range(len(shape)), rng.randint(0, len(shape))))
        function.op("stablehlo.reverse", [operand], f"dimensions = {i64_array(reversed_dims)}", [tensor(shape)])
        function.op(
            "stablehlo.reduce_precision", [operand], "exponent_bits = 5 : i32, mantissa_bits = 10 : i32", [tensor(shape)]
        )
    assert_rules_match(function.text())


# --- concatenate -------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_concatenate(seed):
    """Operands mix whole tensors, slices of them and slices of slices; both propagation modes."""
    rng = random.Random(seed)
    function = Function()
    for _ in range(15):
        shape = [rng.choice([2, 3, 4, 6]) for _ in range(rng.randint(1, 3))]
        dim = rng.randrange(len(shape))
        sources = [function.argument(tensor(shape)) for _ in range(2)]
        sources.append(function.op("stablehlo.add", [(sources[0], tensor(shape))] * 2, "", [tensor(shape)]))

        def slice_of(value, value_shape):
            start = rng.randrange(value_shape[dim])
            limit = rng.randint(start + 1, value_shape[dim])
            starts = [start if d == dim else 0 for d in range(len(shape))]
            limits = [limit if d == dim else size for d, size in enumerate(value_shape)]
            sliced = [limit - start if d == dim else size for d, size in enumerate(value_shape)]
            attributes = (
                f"start_indices = {i64_array(starts)}, limit_indices = {i64_array(limits)}, "
                f"strides = {i64_array([1] * len(shape))}"
            )
            return function.op("stablehlo.slice", [(value, tensor(value_shape))], attributes, [tensor(sliced)]), sliced

        operands = []
        for _ in range(rng.randint(1, 4)):
            value, value_shape = rng.choice(sources[:1] * 3 + sources[1:]), shape
            for _ in range(rng.choice([0, 1, 1, 1, 2])):
                value, value_shape = slice_of(value, value_shape)
            operands.append((value, value_shape))
        result_shape = [
            sum(s[dim] for _, s in operands) if d == dim else size for d, size in enumerate(shape)
        ]
        function.op(
            "stablehlo.concatenate",
            [(value, tensor(value_shape)) for value, value_shape in operands],
            f"dimension = {dim} : i64",
            [tensor(result_shape)],
        )
    assert_both_modes_match(function)


# --- slice, dynamic_slice, dynamic_update_slice, pad --------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_slicing_and_pad(seed):
    rng = random.Random(seed)
    function = Function()
    index = (function.argument("tensor<i32>"), "tensor<i32>")
    pad_value = (function.argument("tensor<f32>"), "tensor<f32>")
    for _ in range(20):
        shape = random_shape(rng)
        operand = (function.argument(tensor(shape)), tensor(shape))
        rank = len(shape)

        starts = [rng.randrange(size) for size in shape]
        limits = [rng.randint(start + 1, size) for start, size in zip(starts, shape)]
        strides = [rng.choice([1, 1, 2, 3]) for _ in shape]
        sliced = [-(-(limit - start) // stride) for start, limit, stride in zip(starts, limits, strides)]
        function.op(
            "stablehlo.slice",
            [operand],
            f"start_indices = {i64_array(starts)}, limit_indices = {i64_array(limits)}, strides = {i64_array(strides)}",
            [tensor(sliced)],
        )

        sizes = [rng.randint(1, size) for size in shape]
        function.op(
            "stablehlo.dynamic_slice", [operand] + [index] * rank, f"slice_sizes = {i64_array(sizes)}", [tensor(sizes)]
        )
        update = (function.argument(tensor(sizes)), tensor(sizes))
        function.op("stablehlo.dynamic_update_slice", [operand, update] + [index] * rank, "", [tensor(shape)])

        low = [rng.choice([0, 0, 1, 2, -1]) for _ in shape]
        high = [rng.choice([0, 0, 1, 3, -1]) for _ in shape]
        interior = [rng.choice([0, 0, 0, 1]) for _ in shape]
        padded = [lo + hi + size + (size - 1) * inner for lo, hi, size, inner in zip(low, high, shape, interior)]
        if min(padded, default=1) >= 0:
            function.op(
                "stablehlo.pad",
                [operand, pad_value],
                f"edge_padding_low = {i64_array(low)}, edge_padding_high = {i64_array(high)}, "
                f"interior_padding = {i64_array(interior)}",
                [tensor(padded)],
            )
    assert_both_modes_match(function)


def random_start_index(rng: random.Random, function: Function, element: str) -> tuple[str, str]:
    """A scalar `element` start index of a random kind: a constant of some dialect, an iota, one computed
    from a constant, or an argument."""
    type_ = f"tensor<{element}>"
    value = f"dense<{rng.randrange(4)}> : {type_}"
    kind = rng.choice(["stablehlo", "sdy", "arith", "mhlo", "chlo", "poison", "iota", "converted", "argument"])
    if kind in ("stablehlo", "sdy", "arith", "mhlo", "chlo"):
        return function.op(f"{kind}.constant", [], f"value = {value}", [type_]), type_
    if kind == "poison":
        return function.op("ub.poison", [], "value = #ub.poison", [type_]), type_
    if kind == "iota":
        iota = function.op("stablehlo.iota", [], "iota_dimension = 0 : i64", [f"tensor<1x{element}>"])
        return function.op("stablehlo.reshape", [(iota, f"tensor<1x{element}>")], "", [type_]), type_
    if kind == "converted":
        constant = function.op("stablehlo.constant", [], "value = dense<1> : tensor<i8>", ["tensor<i8>"])
        return function.op("stablehlo.convert", [(constant, "tensor<i8>")], "", [type_]), type_
    return function.argument(type_), type_


@pytest.mark.parametrize("seed", SEEDS)
def test_dynamic_update_slice_start_index_kinds(seed):
    """The rules of updates at constant and computed start indices (which differ by jaxlib line, see below)."""
    rng = random.Random(seed)
    function = Function()
    for _ in range(20):
        shape = random_shape(rng)
        operand = (function.argument(tensor(shape)), tensor(shape))
        sizes = [rng.choice([1, size, size, rng.randint(1, size)]) for size in shape]
        update = (function.argument(tensor(sizes)), tensor(sizes))
        element = rng.choice(["i32", "i64"])
        if rng.random() < 0.5:
            indices = [random_start_index(rng, function, element) for _ in shape]
        else:
            indices = [random_start_index(rng, function, element)] * len(shape)
        function.op("stablehlo.dynamic_update_slice", [operand, update] + indices, "", [tensor(shape)])
    assert_both_modes_match(function)


DYNAMIC_UPDATE_SLICES = """func.func @f(%operand: tensor<8x4xf32>, %update: tensor<5x4xf32>, %index: tensor<i32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %operand, %update, %zero, %zero : (tensor<8x4xf32>, tensor<5x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  %1 = stablehlo.dynamic_update_slice %operand, %update, %index, %zero : (tensor<8x4xf32>, tensor<5x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  return
}
"""


@pytest.mark.parametrize("line", versions.LINES, ids=lambda line: line.name)
def test_dynamic_update_slice_sliced_dims_by_line(line):
    """jaxlib 0.10 lets the update's sliced dimension stay sharded only at constant start indices; 0.11 on
    give both sides of a sliced dimension permutation factors, whatever the indices."""
    if line is not versions.installed():
        pytest.skip(f"jaxlib {line.name}'s C++ registry is not the installed one")
    rule = "#sdy.op_sharding_rule<([i, k], [j, k], [], [])->([i, k]) {i=8, j=5, k=4}"
    expected = {
        (0, 10): [f"{rule}>", f"{rule} need_replication={{j}}>"],
        (0, 11): [f"{rule} permutation={{i, j}}>"] * 2,
        (0, 12): [f"{rule} permutation={{i, j}}>"] * 2,
    }[line.line]
    for rules in (cpp_rules(DYNAMIC_UPDATE_SLICES), python_rules(DYNAMIC_UPDATE_SLICES)):
        assert [text for name, text in rules if name == "stablehlo.dynamic_update_slice"] == expected


PADS_KEEPING_SIZES = """func.func @f(%operand: tensor<8x6xf32>, %value: tensor<f32>) {
  %0 = stablehlo.pad %operand, %value, low = [1, 0], high = [-1, 0], interior = [0, 0] : (tensor<8x6xf32>, tensor<f32>) -> tensor<8x6xf32>
  %1 = stablehlo.pad %operand, %value, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<8x6xf32>, tensor<f32>) -> tensor<8x6xf32>
  return
}
"""


@pytest.mark.parametrize("conservative", [False, True])
@pytest.mark.parametrize("line", versions.LINES, ids=lambda line: line.name)
def test_pad_keeping_a_dimension_size_by_line(line, conservative):
    """jaxlib 0.12 permutes a padded dimension whose size stays the same (not blocked when conservative);
    earlier lines pass it through."""
    if line is not versions.installed():
        pytest.skip(f"jaxlib {line.name}'s C++ registry is not the installed one")
    rule = "#sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=6}"
    shifted = f"{rule} permutation={{i}}>" if line.line >= (0, 12) else f"{rule}>"
    for rules in (cpp_rules(PADS_KEEPING_SIZES, conservative), python_rules(PADS_KEEPING_SIZES, conservative)):
        assert [text for name, text in rules if name == "stablehlo.pad"] == [shifted, f"{rule}>"]


RESHAPES = """func.func @f(%a: tensor<2x3xf32>, %b: tensor<32xf32>, %c: tensor<12x10xf32>) {
  %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = stablehlo.reshape %b : (tensor<32xf32>) -> tensor<1x32xf32>
  %2 = stablehlo.reshape %c : (tensor<12x10xf32>) -> tensor<8x15xf32>
  return
}
"""


@pytest.mark.parametrize("line", versions.LINES, ids=lambda line: line.name)
def test_reshape_diverging_and_size_one_dims_by_line(line):
    """jaxlib 0.12 permutes the first diverging dimensions, and replicates what one side has alone and size-1
    dimensions; earlier lines give each side pass-through factors of its own."""
    if line is not versions.installed():
        pytest.skip(f"jaxlib {line.name}'s C++ registry is not the installed one")
    if line.line >= (0, 12):
        expected = [
            "#sdy.op_sharding_rule<([i, j])->([i, k]) {i=2, j=3, k=2} need_replication={j, k} permutation={i}>",
            "#sdy.op_sharding_rule<([j])->([i, j]) {i=1, j=32} need_replication={i}>",
            "#sdy.op_sharding_rule<([ij, lm])->([ij, km]) {i=4, j=3, k=3, l=2, m=5} need_replication={k, l} "
            "permutation={j}>",
        ]
    else:
        expected = [
            "#sdy.op_sharding_rule<([i, k])->([j, l]) {i=2, j=3, k=3, l=2}>",
            "#sdy.op_sharding_rule<([j])->([i, j]) {i=1, j=32}>",
            "#sdy.op_sharding_rule<([ij, mn])->([ik, ln]) {i=4, j=3, k=2, l=3, m=2, n=5}>",
        ]
    for rules in (cpp_rules(RESHAPES), python_rules(RESHAPES)):
        assert [text for name, text in rules if name == "stablehlo.reshape"] == expected


# --- select, clamp, bitcast_convert, rng_bit_generator -----------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_select_clamp_bitcast_rng(seed):
    rng = random.Random(seed)
    function = Function()
    for _ in range(15):
        shape = random_shape(rng)
        operand = (function.argument(tensor(shape)), tensor(shape))
        scalar = (function.argument("tensor<f32>"), "tensor<f32>")

        pred_shape = rng.choice([[], shape])
        pred = (function.argument(tensor(pred_shape, "i1")), tensor(pred_shape, "i1"))
        function.op("stablehlo.select", [pred, operand, operand], "", [tensor(shape)])
        bounds = [rng.choice([scalar, operand]) for _ in range(2)]
        function.op("stablehlo.clamp", [bounds[0], operand, bounds[1]], "", [tensor(shape)])

        wide, narrow, ratio = rng.choice([("f32", "f16", 2), ("f64", "f32", 2), ("i32", "i8", 4), ("f32", "i32", 1)])
        narrow_shape = shape + [ratio] if ratio > 1 else shape
        wide_value = (function.argument(tensor(shape, wide)), tensor(shape, wide))
        narrow_value = (function.argument(tensor(narrow_shape, narrow)), tensor(narrow_shape, narrow))
        function.op("stablehlo.bitcast_convert", [wide_value], "", [tensor(narrow_shape, narrow)])
        function.op("stablehlo.bitcast_convert", [narrow_value], "", [tensor(shape, wide)])

        algorithm, state_size = rng.choice([("DEFAULT", 2), ("THREE_FRY", 2), ("PHILOX", 3)])
        state = (function.argument(f"tensor<{state_size}xui64>"), f"tensor<{state_size}xui64>")
        function.op(
            "stablehlo.rng_bit_generator",
            [state],
            f"rng_algorithm = #stablehlo<rng_algorithm {algorithm}>",
            [f"tensor<{state_size}xui64>", tensor(shape, "ui32")],
        )
    assert_rules_match(function.text())


# --- fft, cholesky, triangular_solve ------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_fft(seed):
    rng = random.Random(seed)
    function = Function()
    for _ in range(20):
        batch = random_shape(rng, max_rank=2)
        fft_dims = [rng.choice([1, 2, 4, 6, 7]) for _ in range(rng.randint(1, 3))]
        kind = rng.choice(["FFT", "IFFT", "RFFT", "IRFFT"])
        half = fft_dims[:-1] + [fft_dims[-1] // 2 + 1]
        in_shape, out_shape, in_element, out_element = {
            "FFT": (fft_dims, fft_dims, "complex<f32>", "complex<f32>"),
            "IFFT": (fft_dims, fft_dims, "complex<f32>", "complex<f32>"),
            "RFFT": (fft_dims, half, "f32", "complex<f32>"),
            "IRFFT": (half, fft_dims, "complex<f32>", "f32"),
        }[kind]
        operand = function.argument(tensor(batch + in_shape, in_element))
        function.op(
            "stablehlo.fft",
            [(operand, tensor(batch + in_shape, in_element))],
            f"fft_type = #stablehlo<fft_type {kind}>, fft_length = {i64_array(fft_dims)}",
            [tensor(batch + out_shape, out_element)],
        )
    assert_rules_match(function.text())


@pytest.mark.parametrize("seed", SEEDS)
def test_cholesky_and_triangular_solve(seed):
    rng = random.Random(seed)
    function = Function()
    for _ in range(20):
        batch = random_shape(rng, max_rank=2)
        m, n = rng.choice([1, 3, 4]), rng.choice([1, 2, 5])
        a = (function.argument(tensor(batch + [m, m])), tensor(batch + [m, m]))
        function.op("stablehlo.cholesky", [a], f"lower = {rng.choice(['true', 'false'])}", [tensor(batch + [m, m])])
        left_side = rng.random() < 0.5
        b_shape = batch + ([m, n] if left_side else [n, m])
        b = (function.argument(tensor(b_shape)), tensor(b_shape))
        transpose_a = rng.choice(["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"])
        function.op(
            "stablehlo.triangular_solve",
            [a, b],
            f"left_side = {str(left_side).lower()}, lower = true, unit_diagonal = false, "
            f"transpose_a = #stablehlo<transpose {transpose_a}>",
            [tensor(b_shape)],
        )
    assert_rules_match(function.text())


def test_shape_ops_without_rules():
    """iota and the dynamic-shape ops get no rule from the C++ registry, nor from pysdy."""
    function = Function()
    operand = (function.argument("tensor<4x8xf32>"), "tensor<4x8xf32>")
    shape = (function.argument("tensor<2xi64>"), "tensor<2xi64>")
    function.op("stablehlo.iota", [], "iota_dimension = 1 : i64", ["tensor<4x8xf32>"])
    function.op("stablehlo.dynamic_iota", [shape], "iota_dimension = 0 : i64", ["tensor<4x8xf32>"])
    function.op("stablehlo.broadcast", [operand], f"broadcast_sizes = {i64_array([3])}", ["tensor<3x4x8xf32>"])
    function.op(
        "stablehlo.dynamic_broadcast_in_dim",
        [operand, shape],
        f"broadcast_dimensions = {i64_array([0, 1])}",
        ["tensor<4x8xf32>"],
    )
    function.op("stablehlo.dynamic_reshape", [operand, shape], "", ["tensor<8x4xf32>"])
    function.op("stablehlo.real_dynamic_slice", [operand, shape, shape, shape], "", ["tensor<4x8xf32>"])
    function.op("stablehlo.get_dimension_size", [operand], "dimension = 1 : i64", ["tensor<i32>"])
    assert_both_modes_match(function)
