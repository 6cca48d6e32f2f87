"""Differential tests: pysdy's rules for dot, convolution, reduce, reduce_window,
select_and_scatter, sort and batch norm against jaxlib's C++ registry.

Each family has a seeded generator of random but valid ops (varied ranks,
shapes, size-1 dims, dimension numbers, windows). Every draw is parsed and
verified on its own; invalid draws are skipped, and each test checks that
enough valid ones remain. The valid ops go, one function each, into a single
module compared in one oracle call per conservative mode.
"""

from __future__ import annotations

import random
import zlib

import pytest
from jaxlib.mlir import ir

from oracle import assert_rules_match, cpp_rules, python_rules
from pysdy import versions
from pysdy.dialects.context import make_context

SIZES = (1, 1, 2, 3, 4, 6, 8, 12)
ELEMENT_TYPES = ("f32", "i32", "bf16")


def tensor(shape, element_type: str = "f32") -> str:
    return f"tensor<{''.join(f'{size}x' for size in shape)}{element_type}>"


def ints(values) -> str:
    return f"[{', '.join(map(str, values))}]"


def i64_array(values) -> str:
    return f"array<i64{': ' if values else ''}{', '.join(map(str, values))}>"


def padding_attr(pairs) -> str:
    rows = ", ".join(f"[{lo}, {hi}]" for lo, hi in pairs)
    return f"dense<[{rows}]> : tensor<{len(pairs)}x2xi64>"


def function(name: str, arg_types, result_types, op_text: str) -> str:
    """A function whose body is `op_text` (assigned to %r) returning all its results."""
    args = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(arg_types))
    n = len(result_types)
    lhs = "%r" if n == 1 else f"%r:{n}"
    returned = "%r" if n == 1 else ", ".join(f"%r#{i}" for i in range(n))
    types = ", ".join(result_types)
    return (
        f"func.func @{name}({args}) -> ({types}) {{\n"
        f"  {lhs} = {op_text}\n"
        f"  return {returned} : {types}\n}}\n"
    )


def scalar_block(arg_types: list[str], returned: list[str], result_types: list[str], body: str = "") -> str:
    """A region of one block with scalar-tensor args %b0.. that runs `body` and
    returns the named values."""
    args = ", ".join(f"%b{i}: {t}" for i, t in enumerate(arg_types))
    return (
        f"{{\n  ^bb0({args}):\n{body}"
        f"    stablehlo.return {', '.join(returned)} : {', '.join(result_types)}\n  }}"
    )


def is_valid(function_text: str) -> bool:
    with make_context():
        try:
            module = ir.Module.parse(function_text)
        except ir.MLIRError:
            return False
        return module.operation.verify()


def valid_functions(generate, seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    functions = []
    for index in range(count):
        text = generate(rng, f"case{index}")
        if is_valid(text):
            functions.append(text)
    return functions


def check_against_oracle(functions: list[str], conservative: bool) -> None:
    """Compares all functions in one module; on a mismatch, reports the first bad function alone."""
    module_text = "".join(functions)
    if cpp_rules(module_text, conservative) != python_rules(module_text, conservative):
        for text in functions:
            assert_rules_match(text, conservative)
        pytest.fail("the batched module differs although every function matches alone")


# --------------------------------------------------------------------------
# Generators
# --------------------------------------------------------------------------


def gen_dot_general(rng: random.Random, name: str) -> str:
    num_batch, num_contract = rng.randint(0, 2), rng.randint(0, 2)
    num_lhs_free, num_rhs_free = rng.randint(0, 2), rng.randint(0, 2)
    batch = [rng.choice(SIZES) for _ in range(num_batch)]
    contract = [rng.choice(SIZES) for _ in range(num_contract)]
    lhs_free = [rng.choice(SIZES) for _ in range(num_lhs_free)]
    rhs_free = [rng.choice(SIZES) for _ in range(num_rhs_free)]

    def layout(free):
        # Labels: ("b", i), ("c", i), ("f", i), shuffled into a dimension order.
        labels = [("b", i) for i in range(num_batch)] + [("c", i) for i in range(num_contract)]
        labels += [("f", i) for i in range(len(free))]
        rng.shuffle(labels)
        return labels

    lhs, rhs = layout(lhs_free), layout(rhs_free)

    def shape(labels, free):
        sizes = {"b": batch, "c": contract, "f": free}
        return [sizes[kind][i] for kind, i in labels]

    def dims_of(labels, kind, count):
        return [labels.index((kind, i)) for i in range(count)]

    numbers = (
        f"#stablehlo.dot<lhs_batching_dimensions = {ints(dims_of(lhs, 'b', num_batch))}, "
        f"rhs_batching_dimensions = {ints(dims_of(rhs, 'b', num_batch))}, "
        f"lhs_contracting_dimensions = {ints(dims_of(lhs, 'c', num_contract))}, "
        f"rhs_contracting_dimensions = {ints(dims_of(rhs, 'c', num_contract))}>"
    )
    arg_types = [tensor(shape(lhs, lhs_free)), tensor(shape(rhs, rhs_free))]
    # The result holds the batching dims, then each operand's free dims in its own order.
    free_in_order = [lhs_free[i] for kind, i in lhs if kind == "f"]
    free_in_order += [rhs_free[i] for kind, i in rhs if kind == "f"]
    result_type = tensor(batch + free_in_order)
    op = (
        f'"stablehlo.dot_general"(%arg0, %arg1) {{dot_dimension_numbers = {numbers}}} '
        f": ({arg_types[0]}, {arg_types[1]}) -> {result_type}"
    )
    return function(name, arg_types, [result_type], op)


def gen_dot(rng: random.Random, name: str) -> str:
    m, k, n = rng.choice(SIZES), rng.choice(SIZES), rng.choice(SIZES)
    lhs_is_matrix, rhs_is_matrix = rng.random() < 0.6, rng.random() < 0.6
    lhs = [m, k] if lhs_is_matrix else [k]
    rhs = [k, n] if rhs_is_matrix else [k]
    result = ([m] if lhs_is_matrix else []) + ([n] if rhs_is_matrix else [])
    arg_types, result_type = [tensor(lhs), tensor(rhs)], tensor(result)
    op = f'"stablehlo.dot"(%arg0, %arg1) : ({arg_types[0]}, {arg_types[1]}) -> {result_type}'
    return function(name, arg_types, [result_type], op)


def windowed_size(size, window, stride, lo, hi, base_dilation=1, window_dilation=1) -> int:
    """The number of windows along one dim (StableHLO's reduce_window/convolution formula)."""
    padded = (size - 1) * base_dilation + 1 + lo + hi if size else lo + hi
    dilated_window = (window - 1) * window_dilation + 1
    return 0 if padded < dilated_window else (padded - dilated_window) // stride + 1


def gen_convolution(rng: random.Random, name: str) -> str:
    num_spatial = rng.choice((0, 1, 1, 2, 2, 3))
    groups = rng.choice(("none", "none", "feature", "batch"))
    group_count = rng.choice((2, 3)) if groups != "none" else 1
    feature_groups = group_count if groups == "feature" else 1
    batch_groups = group_count if groups == "batch" else 1

    kernel_in = rng.choice(SIZES + (0,))
    kernel_out = rng.choice((0, 1, 1, 2, 4)) * group_count
    in_batch = rng.choice((0, 1, 1, 2, 3, 4)) * batch_groups
    in_feature = kernel_in * feature_groups
    out_batch, out_feature = in_batch // batch_groups, kernel_out

    lhs_spatial, rhs_spatial, out_spatial = [], [], []
    strides, padding, lhs_dilation, rhs_dilation = [], [], [], []
    for _ in range(num_spatial):
        size = rng.choice((1, 2, 3, 4, 5, 7, 8, 16, 32))
        window = rng.choice((1, 1, 2, 3, 4, 5, 8, 16))
        stride = rng.choice((1, 1, 2, 3))
        lo, hi = rng.choice((0, 0, 1, 2)), rng.choice((0, 0, 1, 3))
        base_dilation, window_dilation = rng.choice((1, 1, 2)), rng.choice((1, 1, 2))
        lhs_spatial.append(size)
        rhs_spatial.append(window)
        out_spatial.append(windowed_size(size, window, stride, lo, hi, base_dilation, window_dilation))
        strides.append(stride)
        padding.append((lo, hi))
        lhs_dilation.append(base_dilation)
        rhs_dilation.append(window_dilation)

    def layout(first, second, spatial_sizes, first_size, second_size):
        labels = [first, second] + [str(i) for i in range(num_spatial)]
        rng.shuffle(labels)
        sizes = {first: first_size, second: second_size}
        sizes.update({str(i): s for i, s in enumerate(spatial_sizes)})
        return labels, [sizes[label] for label in labels]

    lhs_labels, lhs_shape = layout("b", "f", lhs_spatial, in_batch, in_feature)
    rhs_labels, rhs_shape = layout("i", "o", rhs_spatial, kernel_in, kernel_out)
    out_labels, out_shape = layout("b", "f", out_spatial, out_batch, out_feature)
    numbers = (
        f"#stablehlo.conv<[{', '.join(lhs_labels)}]x[{', '.join(rhs_labels)}]"
        f"->[{', '.join(out_labels)}]>"
    )
    attrs = [
        f"batch_group_count = {batch_groups} : i64",
        f"dimension_numbers = {numbers}",
        f"feature_group_count = {feature_groups} : i64",
    ]
    if num_spatial:
        attrs += [
            f"window_strides = {i64_array(strides)}",
            f"padding = {padding_attr(padding)}",
            f"lhs_dilation = {i64_array(lhs_dilation)}",
            f"rhs_dilation = {i64_array(rhs_dilation)}",
        ]
    arg_types = [tensor(lhs_shape), tensor(rhs_shape)]
    result_type = tensor(out_shape)
    op = (
        f'"stablehlo.convolution"(%arg0, %arg1) {{{", ".join(attrs)}}} '
        f": ({arg_types[0]}, {arg_types[1]}) -> {result_type}"
    )
    return function(name, arg_types, [result_type], op)


def random_shape(rng: random.Random, min_rank: int = 0, max_rank: int = 4) -> list[int]:
    return [rng.choice(SIZES) for _ in range(rng.randint(min_rank, max_rank))]


def gen_reduce(rng: random.Random, name: str) -> str:
    shape = random_shape(rng)
    num_inputs = rng.randint(1, 3)
    element_types = [rng.choice(ELEMENT_TYPES) for _ in range(num_inputs)]
    reduced = sorted(rng.sample(range(len(shape)), rng.randint(0, len(shape))))
    kept = [size for dim, size in enumerate(shape) if dim not in reduced]
    scalars = [tensor([], t) for t in element_types]
    arg_types = [tensor(shape, t) for t in element_types] + scalars
    result_types = [tensor(kept, t) for t in element_types]
    operands = ", ".join(f"%arg{i}" for i in range(2 * num_inputs))
    region = f"({scalar_block(scalars * 2, [f'%b{i}' for i in range(num_inputs)], scalars)})"
    op = (
        f'"stablehlo.reduce"({operands}) {region} {{dimensions = {i64_array(reduced)}}} '
        f": ({', '.join(arg_types)}) -> ({', '.join(result_types)})"
    )
    return function(name, arg_types, result_types, op)


def random_window(rng: random.Random, shape, dilations: bool):
    """(window attrs, result shape) for reduce_window / select_and_scatter over `shape`.

    Strides and padding are sometimes left out (their defaults then apply), so
    some dims are windowed by size, some by stride or padding alone, and some
    not at all."""
    with_strides, with_padding = rng.random() < 0.7, bool(shape) and rng.random() < 0.7
    windows, strides, padding, base_dilations, window_dilations, result = [], [], [], [], [], []
    for size in shape:
        window = rng.choice((1, 1, 2, 3, size))
        stride = rng.choice((1, 1, 2, 3)) if with_strides else 1
        lo, hi = rng.choice(((0, 0), (0, 0), (1, 0), (0, 1), (1, 2), (window - 1, 0))) if with_padding else (0, 0)
        base_dilation = rng.choice((1, 1, 2)) if dilations else 1
        window_dilation = rng.choice((1, 1, 2)) if dilations else 1
        windows.append(window)
        strides.append(stride)
        padding.append((lo, hi))
        base_dilations.append(base_dilation)
        window_dilations.append(window_dilation)
        result.append(windowed_size(size, window, stride, lo, hi, base_dilation, window_dilation))
    attrs = [f"window_dimensions = {i64_array(windows)}"]
    if with_strides:
        attrs.append(f"window_strides = {i64_array(strides)}")
    if with_padding:
        attrs.append(f"padding = {padding_attr(padding)}")
    if dilations:
        attrs += [f"base_dilations = {i64_array(base_dilations)}",
                  f"window_dilations = {i64_array(window_dilations)}"]
    return attrs, result


def gen_reduce_window(rng: random.Random, name: str) -> str:
    shape = random_shape(rng)
    num_inputs = rng.randint(1, 2)
    element_types = [rng.choice(ELEMENT_TYPES) for _ in range(num_inputs)]
    attrs, result_shape = random_window(rng, shape, dilations=True)
    scalars = [tensor([], t) for t in element_types]
    arg_types = [tensor(shape, t) for t in element_types] + scalars
    result_types = [tensor(result_shape, t) for t in element_types]
    operands = ", ".join(f"%arg{i}" for i in range(2 * num_inputs))
    region = f"({scalar_block(scalars * 2, [f'%b{i}' for i in range(num_inputs)], scalars)})"
    op = (
        f'"stablehlo.reduce_window"({operands}) {region} {{{", ".join(attrs)}}} '
        f": ({', '.join(arg_types)}) -> ({', '.join(result_types)})"
    )
    return function(name, arg_types, result_types, op)


def gen_select_and_scatter(rng: random.Random, name: str) -> str:
    shape = random_shape(rng)
    attrs, source_shape = random_window(rng, shape, dilations=False)
    scalar = tensor([])
    arg_types = [tensor(shape), tensor(source_shape), scalar]
    compare = "    %cmp = stablehlo.compare GE, %b0, %b1 : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    select = scalar_block([scalar] * 2, ["%cmp"], ["tensor<i1>"], compare)
    scatter = scalar_block([scalar] * 2, ["%b0"], [scalar])
    op = (
        f'"stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) ({select}, {scatter}) '
        f"{{{', '.join(attrs)}}} : ({', '.join(arg_types)}) -> {arg_types[0]}"
    )
    return function(name, arg_types, [arg_types[0]], op)


def gen_sort(rng: random.Random, name: str) -> str:
    shape = random_shape(rng, 1)
    if rng.random() < 0.3:
        shape = [1] * len(shape)
        shape[rng.randrange(len(shape))] = rng.choice(SIZES)
    num_inputs = rng.randint(1, 3)
    element_types = ["f32"] + [rng.choice(ELEMENT_TYPES) for _ in range(num_inputs - 1)]
    scalars = [tensor([], t) for t in element_types for _ in range(2)]
    arg_types = [tensor(shape, t) for t in element_types]
    compare = "    %cmp = stablehlo.compare GT, %b0, %b1 : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    region = f"({scalar_block(scalars, ['%cmp'], ['tensor<i1>'], compare)})"
    attrs = []
    dimension = rng.choice([None] + list(range(-len(shape), len(shape))) + list(range(len(shape))))
    if dimension is not None:
        attrs.append(f"dimension = {dimension} : i64")
    if rng.random() < 0.5:
        attrs.append("is_stable = true")
    attr_text = f" {{{', '.join(attrs)}}}" if attrs else ""
    operands = ", ".join(f"%arg{i}" for i in range(num_inputs))
    op = f'"stablehlo.sort"({operands}) {region}{attr_text} : ({", ".join(arg_types)}) -> ({", ".join(arg_types)})'
    return function(name, arg_types, arg_types, op)


def gen_batch_norm(rng: random.Random, name: str) -> str:
    shape = random_shape(rng, 1)
    feature_index = rng.randrange(len(shape))
    features = tensor([shape[feature_index]])
    operand = tensor(shape)
    attrs = f"{{epsilon = 1.0e-03 : f32, feature_index = {feature_index} : i64}}"
    kind = rng.choice(("inference", "inference", "training", "grad"))
    if kind == "inference":
        arg_types, result_types = [operand] + [features] * 4, [operand]
    elif kind == "training":
        arg_types, result_types = [operand, features, features], [operand, features, features]
    else:
        arg_types, result_types = [operand] + [features] * 3 + [operand], [operand, features, features]
    operands = ", ".join(f"%arg{i}" for i in range(len(arg_types)))
    results = result_types[0] if len(result_types) == 1 else f"({', '.join(result_types)})"
    op = f'"stablehlo.batch_norm_{kind}"({operands}) {attrs} : ({", ".join(arg_types)}) -> {results}'
    return function(name, arg_types, result_types, op)


# family -> (generator, draws, minimum valid draws)
FAMILIES = {
    "dot_general": (gen_dot_general, 200, 190),
    "dot": (gen_dot, 40, 40),
    "convolution": (gen_convolution, 300, 280),
    "reduce": (gen_reduce, 120, 115),
    "reduce_window": (gen_reduce_window, 200, 180),
    "select_and_scatter": (gen_select_and_scatter, 200, 180),
    "sort": (gen_sort, 150, 145),
    "batch_norm": (gen_batch_norm, 60, 60),
}


# The default run checks the first half of each family's draws (the same seed); the slow run all.
@pytest.mark.parametrize("share", [2, pytest.param(1, marks=pytest.mark.slow)], ids=["half", "all"])
@pytest.mark.parametrize("conservative", [False, True], ids=["aggressive", "conservative"])
@pytest.mark.parametrize("family", FAMILIES)
def test_generated_ops_match_oracle(family, conservative, share):
    generate, draws, minimum_valid = FAMILIES[family]
    draws, minimum_valid = draws // share, minimum_valid // share
    functions = valid_functions(generate, seed=zlib.crc32(family.encode()), count=draws)
    assert len(functions) >= minimum_valid, f"only {len(functions)} of {draws} {family} draws were valid"
    check_against_oracle(functions, conservative)


CONVOLUTIONS_BEYOND_INPUT = """func.func @f(%a: tensor<2x16x4xf32>, %b: tensor<3x4x8xf32>, %c: tensor<12x4x8xf32>) {
  %0 = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<2x16x4xf32>, tensor<3x4x8xf32>) -> tensor<2x16x8xf32>
  %1 = stablehlo.convolution(%a, %c) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<2x16x4xf32>, tensor<12x4x8xf32>) -> tensor<2x5x8xf32>
  return
}
"""


@pytest.mark.parametrize("line", versions.LINES, ids=lambda line: line.name)
def test_convolution_spatial_factors_beyond_input_by_line(line):
    """Where the number of windows (or the window) takes the whole input dimension, jaxlib 0.12 keeps the window
    (or the number of windows) as a permutation factor of the kernel (or output) alone; earlier lines drop it."""
    if line is not versions.installed():
        pytest.skip(f"jaxlib {line.name}'s C++ registry is not the installed one")
    if line.line >= (0, 12):
        expected = [
            "#sdy.op_sharding_rule<([i, j, l], [k, l, m])->([i, j, m]) {i=2, j=16, k=3, l=4, m=8} reduction={l} "
            "permutation={j, k}>",
            "#sdy.op_sharding_rule<([i, j, l], [j, l, m])->([i, k, m]) {i=2, j=12, k=5, l=4, m=8} reduction={j, l} "
            "permutation={k}>",
        ]
    else:
        expected = [
            "#sdy.op_sharding_rule<([i, j, k], [m, k, l])->([i, j, l]) {i=2, j=16, k=4, l=8, m=1} reduction={k} "
            "permutation={j}>",
            "#sdy.op_sharding_rule<([i, j, k], [j, k, l])->([i, m, l]) {i=2, j=12, k=4, l=8, m=1} reduction={j, k}>",
        ]
    for rules in (cpp_rules(CONVOLUTIONS_BEYOND_INPUT), python_rules(CONVOLUTIONS_BEYOND_INPUT)):
        assert [text for name, text in rules if name == "stablehlo.convolution"] == expected
