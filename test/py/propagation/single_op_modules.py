"""Random one-op functions with random shardings, for differential tests of one op's sharding (propagation steps,
explicit reshards).

A module has one mesh `@mesh` (1-3 axes, sizes 1-8) and one function whose arguments carry random shardings (open
and closed dimensions, sub-axes, replicated and unreduced axes, priorities, some arguments unsharded) and whose body
is one op of a family (`OP_GENERATORS`), sometimes with its own result sharding, returned to an unannotated result.
"""

from __future__ import annotations

import random
from typing import Optional

from jaxlib.mlir import ir

from pysdy.dialects.sdy import AxisRef, DimSharding, Mesh, MeshAxis, SubAxisInfo, TensorSharding, TensorShardingPerValue

MESH_NAME = "mesh"
AXIS_SIZES = [1, 2, 2, 2, 3, 4, 4, 6, 8]
DIM_SIZES = [1, 2, 3, 4, 6, 8, 12, 16, 24]


def tensor(shape, element_type="f32"):
    return f"tensor<{''.join(f'{size}x' for size in shape)}{element_type}>"


# ---------------------------------------------------------------------------
# Random meshes and shardings
# ---------------------------------------------------------------------------


def random_mesh(rng: random.Random) -> Mesh:
    names = ["x", "y", "z"][: rng.randint(1, 3)]
    return Mesh(tuple(MeshAxis(name, rng.choice(AXIS_SIZES)) for name in names))


def _pieces_of_axis(rng: random.Random, axis: MeshAxis) -> list[AxisRef]:
    """The full axis, or a random split of it into consecutive sub-axes (some of which may be dropped)."""
    if axis.size < 4 or rng.random() < 0.5:
        return [AxisRef(axis.name)]
    divisors = [d for d in range(2, axis.size) if axis.size % d == 0]
    cut = rng.choice(divisors)
    pieces = [AxisRef(axis.name, SubAxisInfo(1, cut)), AxisRef(axis.name, SubAxisInfo(cut, axis.size // cut))]
    rng.shuffle(pieces)
    return pieces[: rng.randint(1, 2)]


def random_sharding(rng: random.Random, mesh: Mesh, rank: int) -> Optional[TensorSharding]:
    if rng.random() < 0.25:
        return None
    pieces = [piece for axis in mesh.axes for piece in _pieces_of_axis(rng, axis)]
    rng.shuffle(pieces)
    dims_axes: list[list[AxisRef]] = [[] for _ in range(rank)]
    replicated: list[AxisRef] = []
    unreduced: list[AxisRef] = []
    for piece in pieces:
        choice = rng.random()
        if rank and choice < 0.6:
            dims_axes[rng.randrange(rank)].append(piece)
        elif choice < 0.7:
            replicated.append(piece)
        elif choice < 0.8:
            unreduced.append(piece)
    order = {axis.name: index for index, axis in enumerate(mesh.axes)}
    for axes in (replicated, unreduced):
        axes.sort(key=lambda ref: (order[ref.name], ref.sub_axis.pre_size if ref.sub_axis else 0))
    dims = tuple(
        DimSharding(tuple(axes), rng.random() < 0.3, rng.choice([None, None, None, 0, 1, 2]))
        for axes in dims_axes
    )
    return TensorSharding(MESH_NAME, dims, tuple(replicated), tuple(unreduced))


# ---------------------------------------------------------------------------
# Random single-op functions: (argument types, op text, result type)
# ---------------------------------------------------------------------------


def _shape(rng, min_rank=1, max_rank=3):
    return [rng.choice(DIM_SIZES) for _ in range(rng.randint(min_rank, max_rank))]


def elementwise_op(rng):
    shape = _shape(rng)
    t = tensor(shape)
    kind = rng.choice(["add", "multiply", "negate", "select", "clamp", "bitcast_convert"])
    if kind == "negate":
        return [t], f"stablehlo.negate %arg0 : {t}", t
    if kind == "bitcast_convert":
        # Same bit width keeps the shape (elementwise); half the width adds a minor dimension (not).
        result = tensor(shape, "i32") if rng.random() < 0.5 else tensor(shape + [2], "f16")
        return [t], f"stablehlo.bitcast_convert %arg0 : ({t}) -> {result}", result
    if kind == "select":
        return [tensor(shape, "i1"), t, t], f"stablehlo.select %arg0, %arg1, %arg2 : {tensor(shape, 'i1')}, {t}", t
    if kind == "clamp":
        return [t, t, t], f"stablehlo.clamp %arg0, %arg1, %arg2 : {t}", t
    return [t, t], f"stablehlo.{kind} %arg0, %arg1 : {t}", t


def dot_general_op(rng):
    batch = _shape(rng, 0, 2)
    m, k, n = (rng.choice(DIM_SIZES) for _ in range(3))
    lhs, rhs = batch + [m, k], batch + [k, n]
    nb = len(batch)
    batching = f"batching_dims = [{', '.join(map(str, range(nb)))}] x [{', '.join(map(str, range(nb)))}], " if nb else ""
    result = tensor(batch + [m, n])
    text = (
        f"stablehlo.dot_general %arg0, %arg1, {batching}contracting_dims = [{nb + 1}] x [{nb}] "
        f": ({tensor(lhs)}, {tensor(rhs)}) -> {result}"
    )
    return [tensor(lhs), tensor(rhs)], text, result


def _group(rng, atoms, split_probability):
    """A random split of `atoms` into consecutive groups, as the product of each group."""
    dims, current = [], 1
    for index, atom in enumerate(atoms):
        current *= atom
        if index == len(atoms) - 1 or rng.random() < split_probability:
            dims.append(current)
            current = 1
    return dims


def reshape_op(rng):
    atoms = [rng.choice([1, 2, 2, 3, 3, 4, 6, 8]) for _ in range(rng.randint(1, 4))]
    # Mostly merges on one side and splits on the other, so dimensions span several factors.
    operand, result = _group(rng, atoms, 0.3), _group(rng, atoms, 0.7)
    if rng.random() < 0.5:
        operand, result = result, operand
    return [tensor(operand)], f"stablehlo.reshape %arg0 : ({tensor(operand)}) -> {tensor(result)}", tensor(result)


def reshape_merged_operand_op(rng):
    """A reshape whose sharded operand dimensions each span several factors (sub-axes, overflow axes)."""
    atoms = [rng.choice([2, 2, 3, 4, 6, 8]) for _ in range(rng.randint(2, 4))]
    operand, result = _group(rng, atoms, 0.2), atoms
    return [tensor(operand)], f"stablehlo.reshape %arg0 : ({tensor(operand)}) -> {tensor(result)}", tensor(result)


def transpose_op(rng):
    shape = _shape(rng, 2, 3)
    perm = list(range(len(shape)))
    rng.shuffle(perm)
    result = tensor([shape[p] for p in perm])
    return [tensor(shape)], f"stablehlo.transpose %arg0, dims = [{', '.join(map(str, perm))}] : ({tensor(shape)}) -> {result}", result


def broadcast_op(rng):
    result = _shape(rng, 1, 3)
    kept = sorted(rng.sample(range(len(result)), rng.randint(0, len(result))))
    operand = [result[d] if rng.random() < 0.7 else 1 for d in kept]
    text = f"stablehlo.broadcast_in_dim %arg0, dims = [{', '.join(map(str, kept))}] : ({tensor(operand)}) -> {tensor(result)}"
    return [tensor(operand)], text, tensor(result)


def reduce_op(rng):
    shape = _shape(rng, 1, 3)
    reduced = sorted(rng.sample(range(len(shape)), rng.randint(1, len(shape))))
    result = tensor([s for d, s in enumerate(shape) if d not in reduced])
    text = (
        f"stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = "
        f"[{', '.join(map(str, reduced))}] : ({tensor(shape)}, tensor<f32>) -> {result}"
    )
    return [tensor(shape), "tensor<f32>"], text, result


def concatenate_op(rng):
    shape = _shape(rng, 1, 3)
    dim = rng.randrange(len(shape))
    other = list(shape)
    other[dim] = rng.choice(DIM_SIZES)
    result = list(shape)
    result[dim] += other[dim]
    text = f"stablehlo.concatenate %arg0, %arg1, dim = {dim} : ({tensor(shape)}, {tensor(other)}) -> {tensor(result)}"
    return [tensor(shape), tensor(other)], text, tensor(result)


def slice_op(rng):
    shape = _shape(rng, 1, 3)
    bounds, result = [], []
    for size in shape:
        start = rng.randrange(size)
        limit = rng.randint(start + 1, size)
        stride = rng.choice([1, 1, 2])
        bounds.append(f"{start}:{limit}" + (f":{stride}" if stride != 1 else ""))
        result.append((limit - start + stride - 1) // stride)
    text = f"stablehlo.slice %arg0 [{', '.join(bounds)}] : ({tensor(shape)}) -> {tensor(result)}"
    return [tensor(shape)], text, tensor(result)


def pad_op(rng):
    shape = _shape(rng, 1, 3)
    low = [rng.choice([0, 0, 1, 2]) for _ in shape]
    high = [rng.choice([0, 0, 1, 3]) for _ in shape]
    result = [s + lo + hi for s, lo, hi in zip(shape, low, high)]
    text = (
        f"stablehlo.pad %arg0, %arg1, low = {low}, high = {high}, interior = {[0] * len(shape)} "
        f": ({tensor(shape)}, tensor<f32>) -> {tensor(result)}"
    )
    return [tensor(shape), "tensor<f32>"], text, tensor(result)


def gather_op(rng):
    rows, cols, count = rng.choice(DIM_SIZES), rng.choice(DIM_SIZES), rng.choice(DIM_SIZES)
    if rng.random() < 0.5:
        # Gather whole rows: offset dim is the columns, the rows are collapsed.
        operand, indices, result = [rows, cols], [count, 1], [count, cols]
        numbers = "offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1"
        slice_sizes = f"1, {cols}"
    else:
        # Batched gather: operand and indices share a batch dim.
        batch = rng.choice(DIM_SIZES)
        operand, indices, result = [batch, rows, cols], [batch, count, 1], [batch, count, cols]
        numbers = (
            "offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], "
            "start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2"
        )
        slice_sizes = f"1, 1, {cols}"
    text = (
        f'"stablehlo.gather"(%arg0, %arg1) {{dimension_numbers = #stablehlo.gather<{numbers}>, '
        f"slice_sizes = array<i64: {slice_sizes}>, indices_are_sorted = false}} "
        f": ({tensor(operand)}, {tensor(indices, 'i32')}) -> {tensor(result)}"
    )
    return [tensor(operand), tensor(indices, "i32")], text, tensor(result)


def dynamic_slice_op(rng):
    shape = _shape(rng, 1, 3)
    sizes = [rng.randint(1, size) for size in shape]
    indices = ["tensor<i32>"] * len(shape)
    index_args = ", ".join(f"%arg{i + 1}" for i in range(len(shape)))
    if rng.random() < 0.5:
        text = (
            f"stablehlo.dynamic_slice %arg0, {index_args}, sizes = {sizes} "
            f": ({', '.join([tensor(shape)] + indices)}) -> {tensor(sizes)}"
        )
        return [tensor(shape)] + indices, text, tensor(sizes)
    index_args = ", ".join(f"%arg{i + 2}" for i in range(len(shape)))
    text = (
        f"stablehlo.dynamic_update_slice %arg0, %arg1, {index_args} "
        f": ({', '.join([tensor(shape), tensor(sizes)] + indices)}) -> {tensor(shape)}"
    )
    return [tensor(shape), tensor(sizes)] + indices, text, tensor(shape)


OP_GENERATORS = {
    "dynamic_slice": dynamic_slice_op,
    "elementwise": elementwise_op,
    "dot_general": dot_general_op,
    "reshape": reshape_op,
    "reshape_merged_operand": reshape_merged_operand_op,
    "transpose": transpose_op,
    "broadcast_in_dim": broadcast_op,
    "reduce": reduce_op,
    "concatenate": concatenate_op,
    "slice": slice_op,
    "pad": pad_op,
    "gather": gather_op,
}


def _region(arguments: int, body: str) -> str:
    """A scalar f32 region of `arguments` block arguments %a0, %a1, ... returning `body`'s %r."""
    block_args = ", ".join(f"%a{i}: tensor<f32>" for i in range(arguments))
    result_type = body.split(" : ")[-1].split(" -> ")[-1]
    return f"({{\n  ^bb0({block_args}):\n    {body}\n    stablehlo.return %r : {result_type}\n  }})"


def sort_op(rng):
    """A two-operand sort (two results) along a random dimension."""
    shape = _shape(rng, 1, 3)
    t = tensor(shape)
    region = _region(4, "%r = stablehlo.compare GT, %a0, %a1 : (tensor<f32>, tensor<f32>) -> tensor<i1>")
    text = (
        f'"stablehlo.sort"(%arg0, %arg1) <{{dimension = {rng.randrange(len(shape))} : i64, is_stable = false}}> '
        f"{region} : ({t}, {t}) -> ({t}, {t})"
    )
    return [t, t], text, (t, t)


def reverse_op(rng):
    shape = _shape(rng, 1, 3)
    dims = sorted(rng.sample(range(len(shape)), rng.randint(1, len(shape))))
    return [tensor(shape)], f"stablehlo.reverse %arg0, dims = {dims} : {tensor(shape)}", tensor(shape)


def cumulative_sum_op(rng):
    """A reduce-window summing a whole dimension's prefix (jnp.cumsum)."""
    shape = _shape(rng, 1, 3)
    dim = rng.randrange(len(shape))
    window = [shape[d] if d == dim else 1 for d in range(len(shape))]
    padding = ", ".join(f"[{shape[d] - 1 if d == dim else 0}, 0]" for d in range(len(shape)))
    region = _region(2, "%r = stablehlo.add %a0, %a1 : tensor<f32>")
    text = (
        f'"stablehlo.reduce_window"(%arg0, %arg1) <{{padding = dense<[{padding}]> : tensor<{len(shape)}x2xi64>, '
        f"window_dimensions = array<i64: {', '.join(map(str, window))}>}}> {region} "
        f": ({tensor(shape)}, tensor<f32>) -> {tensor(shape)}"
    )
    return [tensor(shape), "tensor<f32>"], text, tensor(shape)


def scatter_op(rng):
    """Rows added at scattered indices (x.at[ids].add(rows))."""
    rows, cols, count = rng.choice(DIM_SIZES), rng.choice(DIM_SIZES), rng.choice(DIM_SIZES)
    operand, indices, updates = tensor([rows, cols]), tensor([count, 1], "i32"), tensor([count, cols])
    numbers = (
        "update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
        "index_vector_dim = 1"
    )
    region = _region(2, "%r = stablehlo.add %a0, %a1 : tensor<f32>")
    text = (
        f'"stablehlo.scatter"(%arg0, %arg1, %arg2) <{{scatter_dimension_numbers = #stablehlo.scatter<{numbers}>}}> '
        f"{region} : ({operand}, {indices}, {updates}) -> {operand}"
    )
    return [operand, indices, updates], text, operand


def convolution_op(rng):
    """A 1-D convolution, batch, spatial and feature dims in that order."""
    batch, features, outputs = rng.choice([1, 2, 4, 8]), rng.choice([2, 4, 6, 8]), rng.choice([2, 4, 8, 12])
    width, kernel = rng.choice([4, 6, 8, 12]), rng.choice([1, 3])
    lhs, rhs, result = [batch, width, features], [kernel, features, outputs], [batch, width - kernel + 1, outputs]
    text = (
        "stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], "
        "window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1]} "
        "{batch_group_count = 1 : i64, feature_group_count = 1 : i64} "
        f": ({tensor(lhs)}, {tensor(rhs)}) -> {tensor(result)}"
    )
    return [tensor(lhs), tensor(rhs)], text, tensor(result)


def dot_two_contractions_op(rng):
    m, k1, k2, n = (rng.choice(DIM_SIZES) for _ in range(4))
    lhs, rhs = tensor([m, k1, k2]), tensor([k1, k2, n])
    text = f"stablehlo.dot_general %arg0, %arg1, contracting_dims = [1, 2] x [0, 1] : ({lhs}, {rhs}) -> {tensor([m, n])}"
    return [lhs, rhs], text, tensor([m, n])


# Families the propagation step tests do not draw: ops with regions or several results, more reduction factors.
MORE_OP_GENERATORS = {
    "sort": sort_op,
    "reverse": reverse_op,
    "cumulative_sum": cumulative_sum_op,
    "scatter": scatter_op,
    "convolution": convolution_op,
    "dot_two_contractions": dot_two_contractions_op,
}


def _rank(type_text: str) -> int:
    return type_text.count("x")


def _with_result_sharding(op_text: str, attribute: str) -> str:
    """`op_text` with `attribute` added to the op's attribute dictionary (before the type signature)."""
    if op_text.startswith('"') and "{dimension_numbers" in op_text:
        return op_text.replace("{dimension_numbers", f"{{{attribute}, dimension_numbers", 1)
    head, signature = op_text.rsplit(" : ", 1)
    return f"{head} {{{attribute}}} : {signature}"


def random_module(rng: random.Random, family: str) -> tuple[Mesh, str]:
    """A module for one op of `family` (of `OP_GENERATORS` or `MORE_OP_GENERATORS`)."""
    mesh = random_mesh(rng)
    arg_types, op_text, result_type = {**OP_GENERATORS, **MORE_OP_GENERATORS}[family](rng)
    if isinstance(result_type, tuple):
        return mesh, _multi_result_module(rng, mesh, arg_types, op_text, result_type)
    args = []
    for index, type_text in enumerate(arg_types):
        sharding = random_sharding(rng, mesh, _rank(type_text))
        attr = f" {{sdy.sharding = {sharding.to_attr()}}}" if sharding is not None else ""
        args.append(f"%arg{index}: {type_text}{attr}")
    mesh_text = ", ".join(f'"{a.name}"={a.size}' for a in mesh.axes)
    result_sharding = random_sharding(rng, mesh, _rank(result_type)) if rng.random() < 0.4 else None
    if result_sharding is not None:
        per_value = TensorShardingPerValue((result_sharding,)).to_attr()
        op_text = _with_result_sharding(op_text, f"sdy.sharding = {per_value}")
    text = (
        f"sdy.mesh @{MESH_NAME} = <[{mesh_text}]>\n"
        f"func.func @f({', '.join(args)}) -> {result_type} {{\n"
        f"  %0 = {op_text}\n"
        f"  return %0 : {result_type}\n"
        f"}}\n"
    )
    return mesh, text


def _multi_result_module(rng, mesh: Mesh, arg_types, op_text: str, result_types: tuple[str, ...]) -> str:
    args = []
    for index, type_text in enumerate(arg_types):
        sharding = random_sharding(rng, mesh, _rank(type_text))
        attr = f" {{sdy.sharding = {sharding.to_attr()}}}" if sharding is not None else ""
        args.append(f"%arg{index}: {type_text}{attr}")
    if rng.random() < 0.6:
        shardings = [
            random_sharding(rng, mesh, _rank(t)) or TensorSharding.fully_open(MESH_NAME, _rank(t)) for t in result_types
        ]
        op_text = _with_result_sharding(op_text, f"sdy.sharding = {TensorShardingPerValue(tuple(shardings)).to_attr()}")
    mesh_text = ", ".join(f'"{a.name}"={a.size}' for a in mesh.axes)
    types = ", ".join(result_types)
    results = ", ".join(f"%0#{index}" for index in range(len(result_types)))
    return (
        f"sdy.mesh @{MESH_NAME} = <[{mesh_text}]>\n"
        f"func.func @f({', '.join(args)}) -> ({types}) {{\n"
        f"  %0:{len(result_types)} = {op_text}\n"
        f"  return {results} : {types}\n"
        f"}}\n"
    )


def valid_random_module(rng: random.Random, family: str) -> Optional[tuple[Mesh, str]]:
    """The first of up to 20 draws that verifies (a random sharding may not, e.g. with mergeable sub-axes); needs a
    context."""
    for _ in range(20):
        mesh, text = random_module(rng, family)
        try:
            ir.Module.parse(text)
        except ir.MLIRError:
            continue
        return mesh, text
    return None
