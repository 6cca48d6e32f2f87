"""Reductions over sharded dimensions (max, min, argmax, and/or, product, sum) give plain JAX's values through pysdy."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import re
from typing import Callable

import jax
import jax.numpy as jnp
import jax_corpus  # noqa: F401  (8 CPU devices, before the backend starts)
import numpy as np
import pytest
from child_process import in_child_process
from jax import lax
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P
from line_side import when
from runtime_runs import run_cli

import pysdy.jax
from pysdy.jax import hook
from pysdy.runtime.comparison import mismatch
from pysdy.runtime.pysdy_passes import ROUTES

SHAPE = (16, 8)
MESH_SHAPE = (4, 2)
MESH_AXES = ("data", "model")
# Input shardings: rows over "data" and columns over "model"; rows over both axes.
GRID = (P("data", "model"),)
ROWS_OVER_BOTH = (P(("data", "model"), None),)
# The one fallback a hooked run may report: the gspmd route hands a module with unreduced axes to the sdy route.
UNREDUCED_TO_SDY_ROUTE = "has unreduced axes, which the gspmd route cannot carry: it takes the sdy route"


def negative_floats() -> np.ndarray:
    """Distinct values below zero: a sum, or a zero where padding was reduced, differs from their max."""
    return -(np.random.default_rng(0).permutation(np.prod(SHAPE)) + 1).reshape(SHAPE).astype(np.float32) / 8


def positive_ints() -> np.ndarray:
    """Distinct values above zero: a sum, or a zero where padding was reduced, differs from their min."""
    return (np.random.default_rng(1).permutation(np.prod(SHAPE)) + 1).reshape(SHAPE).astype(np.int32)


def negative_ints() -> np.ndarray:
    return -positive_ints()


def negative_int8s() -> np.ndarray:
    return negative_ints().astype(np.int8)


def small_factors() -> np.ndarray:
    """Values in {-2, -1, 1, 2}: their product fits in int32, and a sum in place of the product differs."""
    return np.random.default_rng(4).choice(np.array([-2, -1, 1, 2], np.int32), SHAPE)


def mostly_false() -> np.ndarray:
    """A few True values per column, some columns none: an `and` in place of the `or` differs."""
    return np.random.default_rng(2).random(SHAPE) < 0.1


def mostly_true() -> np.ndarray:
    """A few False values per column, some columns none: an `or` in place of the `and` differs."""
    return np.random.default_rng(3).random(SHAPE) > 0.1


def true_predicate() -> np.ndarray:
    return np.array(True)


@dataclasses.dataclass(frozen=True)
class Program:
    """A function jitted on the 4x2 mesh with its inputs' shardings and its out_shardings (None: left to
    propagation); whether the mesh axes are Explicit; the kind of the unreduced axes it makes (None: it makes
    none); whether it returns them unreduced, and a second jitted function that reduces them; whether outputs must
    equal plain JAX's exactly (all but float sums, which partitioned runs add in another order)."""

    fn: Callable
    inputs: tuple[Callable[[], np.ndarray], ...]
    in_specs: tuple[P, ...]
    out_specs: P | tuple[P, ...] | None = None
    explicit: bool = False
    unreduced: str | None = None
    returns_unreduced: bool = False
    then: Callable | None = None
    exact: bool = True


@functools.cache
def mesh(explicit: bool) -> jax.sharding.Mesh:
    axis_type = AxisType.Explicit if explicit else AxisType.Auto
    return jax.make_mesh(MESH_SHAPE, MESH_AXES, axis_types=(axis_type,) * len(MESH_AXES))


def shard_map(body: Callable, in_specs: P, out_specs: P, **options) -> Callable:
    return lambda *args: jax.shard_map(body, mesh=mesh(False), in_specs=in_specs, out_specs=out_specs, **options)(*args)


def max_min_and_sum(x):
    return jnp.max(x, axis=0), jnp.min(x, axis=0), jnp.sum(x, axis=0)


def sum_of_max(x):
    return jnp.sum(jnp.max(x, axis=0))


def max_over_sub_axis(x):
    """Reshaped to 2x8x8, the middle dimension is sharded over the second half of "data" (a sub-axis)."""
    return jnp.max(x.reshape(2, 8, 8), axis=1)


def max_of_uneven_slice(x):
    """The first 6 rows stay sharded over the 4 "data" devices: padded to 8, the pad must not be reduced as zeros."""
    rows = lax.with_sharding_constraint(x[:6], NamedSharding(mesh(False), P("data", "model")))
    return jnp.max(rows, axis=0)


def max_then_pmax(block):
    return lax.pmax(lax.reduce_max(block, axes=(0,)), "data")


def min_then_pmin_over_both_axes(block):
    return lax.pmin(jnp.min(block), ("data", "model"))


def max_then_psum(block):
    """A sum of per-"data"-shard maxima: a pmax in place of the psum differs."""
    return lax.psum(jnp.max(block, axis=0), "data")


def reduce_to_model(partial):
    return jax.sharding.reshard(partial, P("model"))


def sum_left_unreduced(x):
    return lax.reduce_sum(x, axes=(0,), out_sharding=P("model", unreduced={"data"}))


def sum_left_unreduced_then_reduced(x):
    return reduce_to_model(sum_left_unreduced(x))


def max_left_unreduced(x):
    kind = jax.sharding.UnreducedKind.max
    return lax.reduce_max(x, axes=(0,), out_sharding=P("model", unreduced={"data"}, unreduced_kind=kind))


def max_left_unreduced_then_reduced(x):
    return reduce_to_model(max_left_unreduced(x))


def min_left_unreduced_on_both_axes_then_reduced(x):
    kind = jax.sharding.UnreducedKind.min
    partial = lax.reduce_min(x, axes=(0,), out_sharding=P(None, unreduced={"data", "model"}, unreduced_kind=kind))
    return jax.sharding.reshard(partial, P(None))


def max_left_unreduced_through_cond(x, predicate):
    """Both branches of a conditional return max-unreduced values, reduced after it."""
    return reduce_to_model(lax.cond(predicate, max_left_unreduced, lambda x: max_left_unreduced(x * 2), x))


def max_left_unreduced_by_a_call(x):
    """The max-unreduced result of a nested jit (a call) is reduced by its caller."""
    return reduce_to_model(jax.jit(max_left_unreduced)(x))


PROGRAMS = {
    "max_over_data": Program(lambda x: jnp.max(x, axis=0), (negative_floats,), GRID),
    "max_over_both_axes_replicated": Program(lambda x: jnp.max(x, axis=0), (negative_floats,), ROWS_OVER_BOTH, P(None)),
    "max_of_all_int": Program(jnp.max, (negative_ints,), GRID),
    "max_over_model_int8": Program(lambda x: jnp.max(x, axis=1), (negative_int8s,), GRID, P(None)),
    "max_over_sub_axis": Program(max_over_sub_axis, (negative_floats,), GRID),
    "max_of_uneven_slice": Program(max_of_uneven_slice, (negative_floats,), GRID),
    "min_over_data_int": Program(lambda x: jnp.min(x, axis=0), (positive_ints,), (P("data", None),), P("model")),
    "min_over_both_axes": Program(lambda x: jnp.min(x, axis=0), (negative_floats,), (P(("model", "data"), None),)),
    "argmax_over_data": Program(lambda x: jnp.argmax(x, axis=0), (negative_floats,), GRID),
    "argmax_over_model": Program(lambda x: jnp.argmax(x, axis=1), (negative_ints,), GRID),
    "argmin_over_both_axes_replicated": Program(
        lambda x: jnp.argmin(x, axis=0), (positive_ints,), ROWS_OVER_BOTH, P(None)
    ),
    "sum_over_both_axes": Program(
        lambda x: jnp.sum(x, axis=0), (negative_floats,), (P(("model", "data"), None),), exact=False
    ),
    "sum_over_data_int": Program(lambda x: jnp.sum(x, axis=0), (negative_ints,), GRID, P(None)),
    "sum_of_max": Program(sum_of_max, (negative_ints,), GRID),
    "max_min_and_sum_of_one_dim": Program(max_min_and_sum, (negative_ints,), GRID, (P("model"), P(None), P("model"))),
    "prod_over_data_int": Program(lambda x: jnp.prod(x, axis=0), (small_factors,), GRID),
    "any_over_data": Program(lambda x: jnp.any(x, axis=0), (mostly_false,), GRID),
    "all_over_both_axes": Program(lambda x: jnp.all(x, axis=0), (mostly_true,), ROWS_OVER_BOTH),
    "shard_map_max_then_pmax": Program(shard_map(max_then_pmax, GRID[0], P("model")), (negative_floats,), GRID),
    "shard_map_min_then_pmin_over_both_axes": Program(
        shard_map(min_then_pmin_over_both_axes, GRID[0], P()), (positive_ints,), GRID
    ),
    "shard_map_max_then_psum": Program(shard_map(max_then_psum, GRID[0], P("model")), (negative_ints,), GRID),
    "shard_map_over_data_alone_max_then_pmax": Program(
        shard_map(max_then_pmax, P("data"), P(), axis_names={"data"}), (negative_floats,), GRID
    ),
    "explicit_max": Program(lambda x: jnp.max(x, axis=0), (negative_floats,), GRID, explicit=True),
    "explicit_argmin": Program(lambda x: jnp.argmin(x, axis=0), (positive_ints,), GRID, explicit=True),
    "explicit_argmax_over_both_axes": Program(
        lambda x: jnp.argmax(x, axis=0), (negative_floats,), ROWS_OVER_BOTH, explicit=True
    ),
    "explicit_sum_left_unreduced": Program(
        sum_left_unreduced_then_reduced, (negative_ints,), GRID, explicit=True, unreduced="sum"
    ),
    "explicit_max_left_unreduced": Program(
        max_left_unreduced_then_reduced, (negative_floats,), GRID, explicit=True, unreduced="max"
    ),
    "explicit_min_left_unreduced_on_both_axes": Program(
        min_left_unreduced_on_both_axes_then_reduced, (positive_ints,), ROWS_OVER_BOTH, explicit=True, unreduced="min"
    ),
    "explicit_max_left_unreduced_through_cond": Program(
        max_left_unreduced_through_cond, (negative_floats, true_predicate), (*GRID, P()), explicit=True, unreduced="max"
    ),
    "explicit_max_left_unreduced_by_a_call": Program(
        max_left_unreduced_by_a_call, (negative_floats,), GRID, explicit=True, unreduced="max"
    ),
    "explicit_sum_returned_unreduced": Program(
        sum_left_unreduced, (negative_ints,), GRID, explicit=True, unreduced="sum", returns_unreduced=True
    ),
    "explicit_max_returned_unreduced": Program(
        max_left_unreduced, (negative_floats,), GRID, explicit=True, unreduced="max", returns_unreduced=True
    ),
    "explicit_max_returned_unreduced_then_reduced": Program(
        max_left_unreduced, (negative_floats,), GRID, explicit=True, unreduced="max", returns_unreduced=True,
        then=reduce_to_model,
    ),
}


def inputs(name: str) -> list[np.ndarray]:
    return [make() for make in PROGRAMS[name].inputs]


def jitted(name: str):
    """The program under jax.jit with its shardings, its inputs placed so, and the mesh to run it under."""
    program = PROGRAMS[name]
    program_mesh = mesh(program.explicit)

    def named(specs):
        return jax.tree.map(lambda spec: NamedSharding(program_mesh, spec), specs, is_leaf=lambda x: isinstance(x, P))

    in_shardings = named(program.in_specs)
    out_shardings = None if program.out_specs is None else named(program.out_specs)
    function = jax.jit(program.fn, in_shardings=in_shardings, out_shardings=out_shardings)
    return function, jax.device_put(inputs(name), list(in_shardings)), program_mesh


def host_value(array: jax.Array) -> np.ndarray:
    """The array's value; for one left unreduced, each device's partial value, stacked in device order."""
    if isinstance(array.sharding, NamedSharding) and array.sharding.spec.unreduced:
        return np.stack([np.asarray(shard.data) for shard in array.addressable_shards])
    return np.asarray(array)


# An HLO computation's first line, and its root instruction's op.
_COMPUTATION = re.compile(r"^(?:ENTRY )?%?([\w.\-]+) .*\{$")
_ROOT_OP = re.compile(r"^\s*ROOT %?[\w.\-]+ = .*? ([a-z][\w\-]*)\(")
_ALL_REDUCE = re.compile(r" all-reduce(?:-start)?\(.*\bto_apply=%?([\w.\-]+)")


def all_reduce_kinds(hlo_text: str) -> frozenset[str]:
    """How the partitioned HLO's all-reduces reduce: the root op of each one's computation (maximum, add, or, ...)."""
    roots, computation = {}, None
    for line in hlo_text.splitlines():
        if (start := _COMPUTATION.match(line)) is not None:
            computation = start.group(1)
        elif (root := _ROOT_OP.match(line)) is not None:
            roots[computation] = root.group(1)
    return frozenset(roots[name] for name in _ALL_REDUCE.findall(hlo_text))


@dataclasses.dataclass(frozen=True)
class Run:
    """A program's outputs, and how the all-reduces XLA partitioned it with reduce."""

    outputs: list[np.ndarray]
    all_reduce_kinds: frozenset[str]


def run(name: str) -> Run:
    """The program run (then its second function on the results, if it has one)."""
    function, args, program_mesh = jitted(name)
    with jax.set_mesh(program_mesh):
        compiled = function.lower(*args).compile()
        results = compiled(*args)
        kinds = all_reduce_kinds(compiled.as_text())
        if PROGRAMS[name].then is not None:
            second = jax.jit(PROGRAMS[name].then).lower(results).compile()
            results = second(results)
            kinds |= all_reduce_kinds(second.as_text())
        return Run([host_value(result) for result in jax.tree.leaves(results)], kinds)


@functools.cache
def plain_jax_run(name: str) -> Run:
    return _plain_jax_run(name)


@in_child_process
def _plain_jax_run(name: str) -> Run:
    return run(name)


@dataclasses.dataclass(frozen=True)
class HookedRun:
    """A run through the hook, the fallbacks and verify differences it reported, and each compile's route."""

    run: Run
    fallbacks: tuple[str, ...]
    differences: tuple[str, ...]
    routes: tuple[str, ...]


@contextlib.contextmanager
def hooked_in_verify_mode(route: str):
    """The hook on `route`, checking each compile against jaxlib's C++ Shardy."""
    verify_before = hook._STATE.verify
    hook._STATE.verify = True
    try:
        with pysdy.jax.pipeline_hook(route=route):
            yield
    finally:
        hook._STATE.verify = verify_before


@in_child_process
def hooked_run(name: str, route: str) -> HookedRun:
    before = pysdy.jax.hook_summary()
    with hooked_in_verify_mode(route):
        hooked = run(name)
    after = pysdy.jax.hook_summary()
    compilations = pysdy.jax.compilations()
    new = compilations[len(compilations) - (after.compiles - before.compiles) :]
    return HookedRun(
        hooked,
        after.fallbacks[len(before.fallbacks) :],
        after.differences[len(before.differences) :],
        tuple(compilation.route for compilation in new),
    )


@in_child_process
def lowered_text(name: str) -> str:
    function, args, program_mesh = jitted(name)
    with jax.set_mesh(program_mesh):
        return function.lower(*args).as_text()


def params(names) -> list:
    """pytest params of `names`; those with max or min unreduced axes (jax.sharding.UnreducedKind) run where the jax
    line has them."""
    with_kinds = when("unreduced_reduction_kinds")
    return [
        pytest.param(name, marks=with_kinds) if PROGRAMS[name].unreduced in ("max", "min") else name for name in names
    ]


def assert_same_values(name: str, got: list[np.ndarray], expected: list[np.ndarray]) -> None:
    assert len(got) == len(expected), name
    for index, (actual, reference) in enumerate(zip(got, expected)):
        if PROGRAMS[name].exact:
            np.testing.assert_array_equal(actual, reference, err_msg=f"{name} output {index}", strict=True)
        else:
            difference = mismatch(actual, reference)
            assert difference is None, f"{name} output {index}: {difference}"


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("name", params(PROGRAMS))
def test_hooked_values_equal_plain_jax(name, route):
    """Through the hook in verify mode: pysdy's module went to XLA (no fallback, jaxlib's C++ Shardy agrees)."""
    hooked = hooked_run(name, route)
    with_unreduced = PROGRAMS[name].unreduced is not None
    route_changes = len(hooked.routes) if route == "gspmd" and with_unreduced else 0
    assert len(hooked.fallbacks) == route_changes, hooked.fallbacks
    assert all(UNREDUCED_TO_SDY_ROUTE in fallback for fallback in hooked.fallbacks), hooked.fallbacks
    assert hooked.routes and set(hooked.routes) == {"sdy" if with_unreduced else route}, hooked.routes
    assert hooked.differences == ()
    plain = plain_jax_run(name)
    assert hooked.run.all_reduce_kinds == plain.all_reduce_kinds
    assert_same_values(name, hooked.run.outputs, plain.outputs)


def pysdy_run(name: str, route: str, directory) -> tuple[int, str, str]:
    """`pysdy-run --devices 8 --check` on the program's lowered module and inputs, its outputs in outputs.npz."""
    module = directory / f"{name}.mlir"
    module.write_text(lowered_text(name))
    arguments = directory / "inputs.npz"
    np.savez(arguments, **{f"arg{index}": value for index, value in enumerate(inputs(name))})
    options = ["--devices", "8", "--check", "--route", route, "--inputs", str(arguments)]
    return run_cli([str(module), *options, "--outputs", str(directory / "outputs.npz")])


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("name", params(n for n in PROGRAMS if not PROGRAMS[n].returns_unreduced))
def test_pysdy_run_values_equal_plain_jax(name, route, tmp_path):
    status, output, error = pysdy_run(name, route, tmp_path)
    assert status == 0, error
    assert re.search(r"^check against .*: passed$", output, re.MULTILINE), output
    with np.load(tmp_path / "outputs.npz") as saved:
        results = [saved[f"result{index}"] for index in range(len(saved.files))]
    assert_same_values(name, results, plain_jax_run(name).outputs)


@pytest.mark.parametrize("name", params(["explicit_sum_returned_unreduced", "explicit_max_returned_unreduced"]))
def test_pysdy_run_on_an_unreduced_result_is_no_internal_error(name, tmp_path):
    _, _, error = pysdy_run(name, "sdy", tmp_path)
    assert "internal error" not in error, error
