"""Differential tests: pysdy's sharding checks report exactly what jaxlib's sdy verifier reports.

Each case is a seeded random mesh / sharding / op sharding rule, valid or broken
on purpose in one of the ways the verifier catches. It is written as module
text, parsed (which runs the C++ verifier), and the first diagnostic is
compared with pysdy's message; a valid case must parse and give None.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import (
    AxisRef,
    DimSharding,
    Mesh,
    MeshAxis,
    OpShardingRule,
    SubAxisInfo,
    TensorSharding,
    TensorShardingPerValue,
)
from pysdy.dialects.sharding_checks import (
    _AxisListChecker,
    factor_symbol,
    verify_manual_computation_value,
    verify_mesh,
    verify_op_sharding_rule,
    verify_sharding_per_value,
    verify_tensor_sharding,
)

SEEDS = range(40)
# What the installed line's verifier calls a sharding on a mesh without axes.
SINGLE_DEVICE_KIND = "single-device" if versions.installed().verifier_says_single_device_sharding else "maximal"
CASES_PER_SEED = 60
AXIS_NAMES = ["x", "y", "z", "a", "b", "c", "data", "model", "tp", "ep", "w", "pipe", "k1", "seq"]


@pytest.fixture(scope="module")
def context():
    return make_context()


def first_verifier_message(context: ir.Context, text: str) -> str | None:
    with context:
        try:
            ir.Module.parse(text)
        except ir.MLIRError as error:
            return error.error_diagnostics[0].message
    return None


# --------------------------------------------------------------------------
# Writing possibly-invalid values as text (to_attr() may refuse them)
# --------------------------------------------------------------------------


def mesh_text(mesh: Mesh) -> str:
    axes = ", ".join(f'"{axis.name}"={axis.size}' for axis in mesh.axes)
    device_ids = f", device_ids=[{', '.join(map(str, mesh.device_ids))}]" if mesh.device_ids else ""
    return f"<[{axes}]{device_ids}>"


def dim_text(dim: DimSharding) -> str:
    items = [str(axis) for axis in dim.axes] + ([] if dim.is_closed else ["?"])
    priority = "" if dim.priority is None else f"p{dim.priority}"
    return "{" + ", ".join(items) + "}" + priority


def sharding_text(sharding: TensorSharding) -> str:
    mesh = f"mesh{mesh_text(sharding.mesh)}" if isinstance(sharding.mesh, Mesh) else f"@{sharding.mesh}"
    text = f"<{mesh}, [{', '.join(dim_text(d) for d in sharding.dims)}]"
    for name, axes in (("replicated", sharding.replicated), ("unreduced", sharding.unreduced)):
        if axes:
            text += f", {name}={{{', '.join(map(str, axes))}}}"
    return text + ">"


def tensor_type(shape) -> str:
    return "tensor<" + "".join(f"{size}x" for size in shape) + "f32>"


# --------------------------------------------------------------------------
# Generators
# --------------------------------------------------------------------------


def random_mesh(rng: random.Random) -> Mesh:
    if rng.random() < 0.05:
        return Mesh((), (rng.randrange(8),))
    names = rng.sample(AXIS_NAMES, rng.randint(1, 4))
    axes = tuple(MeshAxis(name, rng.choice([1, 2, 3, 4, 6, 8, 12, 16])) for name in names)
    mesh = Mesh(axes)
    if rng.random() < 0.1:
        device_ids = list(range(mesh.total_size))
        rng.shuffle(device_ids)
        mesh = Mesh(axes, tuple(device_ids))
    return mesh


def factor_chain(rng: random.Random, size: int) -> list[int]:
    """A random split of `size` into factors > 1 whose product is `size`."""
    chain = []
    while size > 1:
        divisors = [d for d in range(2, size + 1) if size % d == 0]
        factor = rng.choice(divisors)
        chain.append(factor)
        size //= factor
    return chain


def axis_parts(rng: random.Random, axis: MeshAxis) -> list[AxisRef]:
    """The full axis, or consecutive sub-axes that together make it up."""
    chain = factor_chain(rng, axis.size)
    if len(chain) < 2 or rng.random() < 0.5:
        return [AxisRef(axis.name)]
    parts, pre_size = [], 1
    for factor in chain:
        parts.append(AxisRef(axis.name, SubAxisInfo(pre_size, factor)))
        pre_size *= factor
    return parts


def sorted_by_mesh(mesh: Mesh, axes: list[AxisRef]) -> list[AxisRef]:
    def key(axis: AxisRef):
        index = mesh.axis_index(axis.name)
        sub = axis.sub_axis
        return (len(mesh.axes) if index is None else index, sub is None, sub and (sub.pre_size, sub.size))

    return sorted(axes, key=key)


def random_sharding(rng: random.Random, mesh: Mesh, rank: int, mesh_ref) -> TensorSharding:
    """A sharding that is usually valid, then broken by 0-2 random mutations."""
    dims: list[list[AxisRef]] = [[] for _ in range(rank)]
    replicated: list[AxisRef] = []
    unreduced: list[AxisRef] = []
    for axis in mesh.axes:
        for part in axis_parts(rng, axis):
            choice = rng.random()
            if choice < 0.25:
                continue
            if choice < 0.4:
                replicated.append(part)
            elif choice < 0.5:
                unreduced.append(part)
            elif rank:
                dims[rng.randrange(rank)].append(part)
    for axes in dims:
        rng.shuffle(axes)
    replicated, unreduced = sorted_by_mesh(mesh, replicated), sorted_by_mesh(mesh, unreduced)
    lists = [*dims, replicated, unreduced]
    names = [axis.name for axis in mesh.axes]

    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        target = rng.choice(lists)
        kind = rng.randrange(8)
        if kind == 0:  # an axis the mesh lacks
            target.insert(rng.randint(0, len(target)), AxisRef(rng.choice(["q", "u", "unknown"])))
        elif kind == 1 and names:  # a full axis, maybe used already
            target.insert(rng.randint(0, len(target)), AxisRef(rng.choice(names)))
        elif kind == 2 and names:  # an arbitrary, often invalid, sub-axis
            info = SubAxisInfo(rng.choice([0, 1, 1, 2, 3, 4, 8]), rng.choice([1, 2, 2, 3, 4, 8]))
            target.insert(rng.randint(0, len(target)), AxisRef(rng.choice(names), info))
        elif kind == 3:  # an axis used twice
            used = [axis for axes in lists for axis in axes]
            if used:
                target.insert(rng.randint(0, len(target)), rng.choice(used))
        elif kind == 4:  # axes out of mesh order
            rng.shuffle(target)
        elif kind == 5:  # mergeable or overlapping sub-axes
            axis = next((a for a in mesh.axes if a.size % 8 == 0), None)
            if axis is not None:
                second = rng.choice([SubAxisInfo(2, 2), SubAxisInfo(1, 4), SubAxisInfo(2, 4)])
                target += [AxisRef(axis.name, SubAxisInfo(1, 2)), AxisRef(axis.name, second)]
        elif kind == 6:  # a rank that differs from the tensor's
            if rng.random() < 0.5:
                lists.insert(rng.randint(0, len(lists) - 2), [])
            elif len(lists) > 2:
                lists.pop(rng.randrange(len(lists) - 2))
        elif kind == 7 and mesh.axes:  # a sub-axis as big as its axis
            axis = rng.choice(mesh.axes)
            target.append(AxisRef(axis.name, SubAxisInfo(1, axis.size)))

    *dims, replicated, unreduced = lists
    dim_shardings = []
    for axes in dims:
        is_closed = rng.random() < 0.6
        priority = rng.randrange(4) if rng.random() < 0.2 else None
        dim_shardings.append(DimSharding(tuple(axes), is_closed, priority))
    return TensorSharding(mesh_ref, tuple(dim_shardings), tuple(replicated), tuple(unreduced))


def random_shape(rng: random.Random) -> tuple[int, ...]:
    return tuple(rng.choice([1, 2, 3, 4, 6, 8, 16]) for _ in range(rng.randint(0, 4)))


def random_sharding_case(rng: random.Random) -> tuple[Mesh, tuple[int, ...], TensorSharding]:
    mesh = random_mesh(rng)
    shape = random_shape(rng)
    if mesh.is_maximal and rng.random() < 0.7:
        shape = ()
    mesh_ref = mesh if rng.random() < 0.1 else ("mesh" if rng.random() < 0.97 else "other")
    return mesh, shape, random_sharding(rng, mesh, len(shape), mesh_ref)


def func_arg_module(mesh: Mesh, shape, sharding: TensorSharding) -> str:
    return (
        f"sdy.mesh @mesh = {mesh_text(mesh)}\n"
        f"func.func @f(%arg0: {tensor_type(shape)} {{sdy.sharding = #sdy.sharding{sharding_text(sharding)}}}) {{\n"
        "  return\n}"
    )


# --------------------------------------------------------------------------
# Tensor shardings on function arguments
# --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_tensor_sharding_messages_match_verifier(context, seed):
    rng = random.Random(seed)
    for _ in range(CASES_PER_SEED):
        mesh, shape, sharding = random_sharding_case(rng)
        text = func_arg_module(mesh, shape, sharding)
        ours = verify_tensor_sharding(sharding, shape, mesh if sharding.mesh == "mesh" else None)
        expected = None if ours is None else f"'func.func' op arg 0 - {ours}"
        actual = first_verifier_message(context, text)
        if actual != expected and ours in sub_axis_errors_per_name(sharding, mesh):
            # Sub-axes of several names are invalid: the C++ verifier picks one by
            # hash-map order, which is unspecified. It must still be one of them.
            expected_any = {f"'func.func' op arg 0 - {m}" for m in sub_axis_errors_per_name(sharding, mesh)}
            assert actual in expected_any, text
            continue
        assert actual == expected, text


def sub_axis_errors_per_name(sharding, mesh) -> set:
    """The sub-axis error pysdy finds for each axis name, when that name alone is checked."""
    checker = _AxisListChecker(mesh)
    for axes in [d.axes for d in sharding.dims] + [sharding.replicated, sharding.unreduced]:
        if checker.add(axes) is not None:
            return set()
    errors = {checker._verify_sub_axes_of(name) for name in checker.sub_axes_by_name}
    return errors - {None} if len(errors - {None}) > 1 else set()


@pytest.mark.parametrize("line", versions.LINES, ids=lambda line: line.name)
def test_sharding_on_a_mesh_without_axes_is_named_as_the_lines_verifier_names_it(context, line):
    if line is not versions.installed():
        pytest.skip(f"jaxlib {line.name}'s verifier is not the installed one")
    kind = {(0, 10): "maximal", (0, 11): "maximal", (0, 12): "single-device"}[line.line]
    expected = (
        f"'func.func' op arg 0 - a {kind} sharding can only have a sharding with rank 0 and no replicated or "
        "unreduced axes."
    )
    mesh = Mesh((), (3,))
    sharding = TensorSharding("mesh", (DimSharding(()),))
    assert first_verifier_message(context, func_arg_module(mesh, (2,), sharding)) == expected
    assert f"'func.func' op arg 0 - {verify_tensor_sharding(sharding, (2,), mesh)}" == expected


def message_kind(message: str | None) -> str | None:
    """A message without its axes and numbers, to count which checks the cases reach."""
    return None if message is None else re.sub(r"-?\d+", "N", message.split(":")[0])


def test_generated_shardings_reach_every_check():
    rng = random.Random(0)
    kinds = Counter()
    for _ in range(len(SEEDS) * CASES_PER_SEED):
        mesh, shape, sharding = random_sharding_case(rng)
        kinds[message_kind(verify_tensor_sharding(sharding, shape, mesh if sharding.mesh == "mesh" else None))] += 1
    expected_kinds = {
        None,
        "unknown mesh",
        f"a {SINGLE_DEVICE_KIND} sharding can only have a sharding with rank N and no replicated or unreduced axes.",
        "sharding doesn't match tensor rank",
        "dim N is empty and closed but has a priority",
        "unknown axis name",
        "duplicate axis ref",
        "two consecutive sub-axes can be merged",
        "replicated axes are not ordered w.r.t. mesh",
        "unreduced axes are not ordered w.r.t. mesh",
        "both sub-axis and full-axis are used for axis name",
        "sub-axis pre-size must be at least N",
        "sub-axis sizes must be greater than N",
        "sub-axis next pre-size N doesn't divide the size of the full axis N",
        "sub-axis size is equal to the full axis size",
        "overlapping sub-axes",
    }
    assert expected_kinds <= set(kinds), sorted(map(str, expected_kinds - set(kinds)))
    assert kinds[None] > sum(kinds.values()) // 5


# --------------------------------------------------------------------------
# Meshes
# --------------------------------------------------------------------------


def random_mesh_case(rng: random.Random) -> Mesh:
    names = [rng.choice(AXIS_NAMES[:5]) for _ in range(rng.randint(0, 3))]
    axes = tuple(MeshAxis(name, rng.choice([-1, 0, 1, 1, 2, 2, 3, 4])) for name in names)
    total = 1
    for axis in axes:
        total *= max(axis.size, 1)
    choice = rng.random()
    if choice < 0.3:
        device_ids: list[int] = []
    elif choice < 0.7:
        device_ids = list(range(total))
        if rng.random() < 0.7:
            rng.shuffle(device_ids)
    else:
        device_ids = [rng.randrange(-1, total + 2) for _ in range(rng.choice([1, 2, total, total + 1]))]
    return Mesh(axes, tuple(device_ids))


@pytest.mark.parametrize("seed", range(4))
def test_mesh_messages_match_verifier(context, seed):
    rng = random.Random(seed)
    for _ in range(150):
        mesh = random_mesh_case(rng)
        text = f"sdy.mesh @mesh = {mesh_text(mesh)}"
        ours = verify_mesh(mesh)
        expected = None if ours is None else f"custom op 'sdy.mesh' {ours}"
        assert first_verifier_message(context, text) == expected, text


# --------------------------------------------------------------------------
# Shardings per value, inside and around manual computations
# --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_sharding_per_value_messages_match_verifier(context, seed):
    rng = random.Random(100 + seed)
    for _ in range(40):
        mesh = random_mesh(rng)
        shapes = [random_shape(rng) for _ in range(rng.randint(1, 3))]
        sharded = shapes + [random_shape(rng)] if rng.random() < 0.1 else shapes
        shardings = TensorShardingPerValue(
            tuple(random_sharding(rng, mesh, len(shape), "mesh") for shape in sharded)
        )
        results = ", ".join(tensor_type(shape) for shape in shapes)
        text = (
            f"sdy.mesh @mesh = {mesh_text(mesh)}\n"
            "func.func @f() {\n"
            f"  %r:{len(shapes)} = stablehlo.custom_call @foo() "
            f"{{sdy.sharding = #sdy.sharding_per_value<[{', '.join(map(sharding_text, shardings.shardings))}]>}}"
            f" : () -> ({results})\n  return\n}}"
        )
        ours = verify_sharding_per_value(shardings, shapes, {"mesh": mesh})
        expected = None if ours is None else f"'stablehlo.custom_call' op result {ours}"
        assert first_verifier_message(context, text) == expected, text


def manual_computation_module(mesh, shape, sharding, manual_axes, local_shape, inner_sharding=None):
    local = tensor_type(local_shape)
    body = "    sdy.return %arg1 : " + local
    if inner_sharding is not None:
        body = (
            f"    %1 = sdy.sharding_constraint %arg1 {sharding_text(inner_sharding)} : {local}\n"
            f"    sdy.return %1 : {local}"
        )
    manual = ", ".join(f'"{name}"' for name in manual_axes)
    return (
        f"sdy.mesh @mesh = {mesh_text(mesh)}\n"
        f"func.func @f(%arg0: {tensor_type(shape)}) -> {tensor_type(shape)} {{\n"
        f"  %0 = sdy.manual_computation(%arg0) in_shardings=[{sharding_text(sharding)}] "
        f"out_shardings=[{sharding_text(sharding)}] manual_axes={{{manual}}} (%arg1: {local}) {{\n"
        f"{body}\n"
        f"  }} : ({tensor_type(shape)}) -> {tensor_type(shape)}\n"
        f"  return %0 : {tensor_type(shape)}\n}}"
    )


def local_shape(shape, sharding: TensorSharding, mesh: Mesh, manual_axes) -> tuple[int, ...]:
    local = []
    for size, dim in zip(shape, sharding.dims):
        manual_size = 1
        for axis in dim.axes:
            if axis.name in manual_axes:
                manual_size *= axis.size(mesh)
        local.append(size // manual_size)
    return tuple(local)


def random_manual_case(rng: random.Random):
    mesh = Mesh(tuple(MeshAxis(name, rng.choice([2, 3, 4])) for name in rng.sample(AXIS_NAMES[:6], 3)))
    shape = tuple(rng.choice([2, 3, 4, 6, 8, 12]) for _ in range(rng.randint(1, 3)))
    manual_axes = [axis.name for axis in mesh.axes if rng.random() < 0.5]
    dims = []
    free = list(mesh.axes)
    rng.shuffle(free)
    for _ in shape:
        taken = [free.pop() for _ in range(min(len(free), rng.randint(0, 2)))]
        dims.append(DimSharding(tuple(AxisRef(axis.name) for axis in taken)))
    return mesh, shape, TensorSharding("mesh", tuple(dims)), manual_axes


@pytest.mark.parametrize("seed", range(3))
def test_manual_computation_messages_match_verifier(context, seed):
    rng = random.Random(200 + seed)
    for _ in range(40):
        mesh, shape, sharding, manual_axes = random_manual_case(rng)
        text = manual_computation_module(
            mesh, shape, sharding, manual_axes, local_shape(shape, sharding, mesh, manual_axes)
        )
        ours = verify_manual_computation_value(sharding, shape, mesh, manual_axes, "operand", 0)
        expected = None if ours is None else f"'sdy.manual_computation' op {ours}"
        assert first_verifier_message(context, text) == expected, text


@pytest.mark.parametrize("seed", range(3))
def test_axes_bound_by_a_parent_manual_computation_match_verifier(context, seed):
    rng = random.Random(300 + seed)
    for _ in range(40):
        mesh = Mesh(tuple(MeshAxis(name, 2) for name in rng.sample(AXIS_NAMES[:6], 3)))
        manual_axes = [mesh.axes[0].name]
        shape = (8, 8)
        outer = TensorSharding("mesh", (DimSharding((AxisRef(manual_axes[0]),)), DimSharding()))
        local = local_shape(shape, outer, mesh, manual_axes)
        inner = random_sharding(rng, mesh, len(shape), "mesh")
        text = manual_computation_module(mesh, shape, outer, manual_axes, local, inner)
        ours = verify_tensor_sharding(inner, local, mesh, bound_manual_axes=manual_axes)
        expected = None if ours is None else f"'sdy.sharding_constraint' op {ours}"
        assert first_verifier_message(context, text) == expected, text


# --------------------------------------------------------------------------
# Op sharding rules
# --------------------------------------------------------------------------


def rule_text(rule: OpShardingRule) -> str:
    def mapping(tensor) -> str:
        return "[" + ", ".join("".join(map(factor_symbol, factors)) for factors in tensor) + "]"

    def factor_set(factors) -> str:
        return "{" + ", ".join(map(factor_symbol, factors)) + "}"

    text = f"({', '.join(map(mapping, rule.operand_mappings))})->({', '.join(map(mapping, rule.result_mappings))})"
    text += " {" + ", ".join(f"{factor_symbol(i)}={size}" for i, size in enumerate(rule.factor_sizes)) + "}"
    for name, factors in (
        ("reduction", rule.reduction_factors),
        ("need_replication", rule.need_replication_factors),
        ("permutation", rule.permutation_factors),
        ("blocked_propagation", rule.blocked_propagation_factors),
    ):
        if factors:
            text += f" {name}={factor_set(factors)}"
    return text + (", custom" if rule.is_custom else "")


def random_rule_case(rng: random.Random):
    """A rule that is usually valid for its shapes, then broken by 0-2 random mutations."""
    operand_shapes = [random_shape(rng)[:3] for _ in range(rng.randint(1, 3))]
    result_shapes = [random_shape(rng)[:3] for _ in range(rng.randint(1, 2))]
    sizes: list[int] = []

    def mapping(shape) -> list[list[int]]:
        dims, used = [], set()
        for _ in shape:
            dim = []
            for _ in range(1 if rng.random() < 0.8 else 2):
                reusable = [f for f in range(len(sizes)) if f not in used and sizes[f] > 1]
                if reusable and rng.random() < 0.5:
                    factor = rng.choice(reusable)
                else:
                    factor = len(sizes)
                    sizes.append(rng.choice([1, 2, 3, 4]) if rng.random() < 0.5 else rng.choice([2, 3, 4]))
                dim.append(factor)
                used.add(factor)
            if len(dim) > 1:
                for factor in dim:
                    sizes[factor] = max(sizes[factor], 2)
            dims.append(dim)
        return dims

    operands = [mapping(shape) for shape in operand_shapes]
    results = [mapping(shape) for shape in result_shapes]
    in_results = {f for tensor in results for dim in tensor for f in dim}
    free = [f for f in range(len(sizes))]
    rng.shuffle(free)
    sets = [sorted(free[i::5]) if rng.random() < 0.4 else [] for i in range(4)]
    sets[0] = [f for f in sets[0] if f not in in_results]

    for _ in range(rng.choice([0, 0, 1, 2])):
        tensors = operands + results
        target = rng.choice(sets)
        kind = rng.randrange(9)
        if kind == 0 and tensors:  # a mapping rank that differs from the tensor's
            rng.choice(tensors).append([rng.randrange(len(sizes) + 1)])
        elif kind == 1:  # a reused, out-of-range or size-1 extra factor in a dim
            dims = [dim for tensor in tensors for dim in tensor]
            if dims:
                rng.choice(dims).append(rng.randrange(len(sizes) + 2))
        elif kind == 2:  # an unused factor
            sizes.append(rng.choice([1, 2]))
        elif kind == 3:  # a special factor that overlaps, repeats or is out of range
            target.append(rng.randrange(len(sizes) + 1))
        elif kind == 4:  # an unsorted special factor set
            rng.shuffle(target)
        elif kind == 5:  # a reduction factor that a result uses
            sets[0] = sorted(set(sets[0]) | set(list(in_results)[:1]))
        elif kind == 6:  # a mapping count that differs from the op's
            (operands if rng.random() < 0.5 else results).append([])
        elif kind == 7:  # a dim without factors (written `[, j]`, so only in rank >= 2)
            wide = [tensor for tensor in tensors if len(tensor) >= 2]
            if wide:
                tensor = rng.choice(wide)
                tensor[rng.randrange(len(tensor))] = []
        elif kind == 8 and target:  # a repeated special factor
            target.append(target[-1])
    rule = OpShardingRule(
        tuple(sizes),
        tuple(tuple(map(tuple, tensor)) for tensor in operands),
        tuple(tuple(map(tuple, tensor)) for tensor in results),
        *map(tuple, sets),
        is_custom=rng.random() < 0.2,
    )
    return rule, operand_shapes, result_shapes


def custom_call_module(rule: OpShardingRule, operand_shapes, result_shapes) -> str:
    arguments = ", ".join(f"%arg{i}: {tensor_type(shape)}" for i, shape in enumerate(operand_shapes))
    operands = ", ".join(f"%arg{i}" for i in range(len(operand_shapes)))
    results = f"%r:{len(result_shapes)} = " if len(result_shapes) > 1 else "%r = "
    operand_types = ", ".join(tensor_type(shape) for shape in operand_shapes)
    result_types = ", ".join(tensor_type(shape) for shape in result_shapes)
    return (
        f"func.func @f({arguments}) {{\n"
        f"  {results}stablehlo.custom_call @foo({operands}) "
        f"{{sdy.sharding_rule = #sdy.op_sharding_rule<{rule_text(rule)}>}} : ({operand_types}) -> ({result_types})\n"
        "  return\n}"
    )


RULE_SEEDS = range(8)
RULE_CASES_PER_SEED = 80


@pytest.mark.parametrize("seed", RULE_SEEDS)
def test_op_sharding_rule_messages_match_verifier(context, seed):
    rng = random.Random(400 + seed)
    for _ in range(RULE_CASES_PER_SEED):
        rule, operand_shapes, result_shapes = random_rule_case(rng)
        text = custom_call_module(rule, operand_shapes, result_shapes)
        ours = verify_op_sharding_rule(rule, operand_shapes, result_shapes)
        expected = None if ours is None else f"'stablehlo.custom_call' op {ours}"
        assert first_verifier_message(context, text) == expected, text


def test_generated_rules_reach_every_check():
    rng = random.Random(0)
    kinds = Counter()
    for _ in range(len(RULE_SEEDS) * RULE_CASES_PER_SEED):
        kinds[message_kind(verify_op_sharding_rule(*random_rule_case(rng)))] += 1
    kinds = Counter({kind and re.sub(r"^(operand|result)( N)? - ", "", kind): n for kind, n in kinds.items()})
    expected_kinds = {
        None,
        "number of operands and mappings must match",
        "number of results and mappings must match",
        "mapping rank must match",
        "dim mapping must have at least one factor",
        "expecting factor indices to be within N<=...<num_factors; received",
        "cannot reuse factors for the same tensor value",
        "dim mapping can't have a factor of size N if there are multiple factors",
        "indices of special factors must be sorted",
        "indices of special factors must be unique",
        "index must be less than N, got",
        "a factor can only be in one of the reduction, need replication, or permutation factor sets",
        "reduction factor cannot be in result mappings",
    }
    assert expected_kinds <= set(kinds), sorted(map(str, expected_kinds - set(kinds)))
    assert any(kind and kind.startswith("has factor") for kind in kinds)
    assert kinds[None] > sum(kinds.values()) // 5


def test_op_sharding_rule_without_mappings_is_rejected():
    rule = OpShardingRule((2,), (((0,),),), ())
    assert verify_op_sharding_rule(rule, [(2,)], []) == (
        "number of results mappings cannot be 0. Op sharding rules can only be defined "
        "on operations with at least one operand and result."
    )


def test_negative_priority_is_rejected():
    mesh = Mesh((MeshAxis("x", 2),))
    sharding = TensorSharding("mesh", (DimSharding((AxisRef("x"),), True, -1),))
    assert verify_tensor_sharding(sharding, (4,), mesh) == "dim 0 has a negative priority"
