"""Each feature the gspmd route cannot carry (jax_api/gspmd_route_limits.py), met through the hook on that route: the
compile takes the sdy route with a `PysdyFallbackWarning` naming the module and the feature, and computes the value
plain `jax.jit` does."""

from __future__ import annotations

import re
import warnings

import jax
import jax_corpus  # noqa: F401  (8 CPU devices, before the backend starts)
import numpy as np
import pytest
from jax.experimental.custom_partitioning import custom_partitioning
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

import pysdy.jax
from pysdy.jax.gspmd_route_limits import gspmd_route_limit
from pysdy.runtime.comparison import mismatch


@pytest.fixture(scope="module")
def mesh():
    return jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto,) * 2)


def _row_scaled():
    """Doubles each row, partitioned by rows: each device doubles its own rows."""

    @custom_partitioning
    def row_scaled(x):
        return x * 2

    def infer(mesh, arg_shapes, result_shape):
        return NamedSharding(mesh, P(arg_shapes[0].sharding.spec[0], None))

    def partition(mesh, arg_shapes, result_shape):
        sharding = NamedSharding(mesh, P(arg_shapes[0].sharding.spec[0], None))
        return mesh, lambda x: x * 2, sharding, (sharding,)

    row_scaled.def_partition(infer_sharding_from_operands=infer, partition=partition, sharding_rule="i j -> i j")
    return row_scaled


def _custom_partitioning(mesh):
    return jax.jit(_row_scaled(), in_shardings=NamedSharding(mesh, P("x", None))), np.arange(64.0, dtype=np.float32).reshape(8, 8)


def _approx_top_k(mesh):
    function = jax.jit(lambda x: jax.lax.approx_max_k(x, 2)[0], in_shardings=NamedSharding(mesh, P("x", None)))
    return function, np.random.default_rng(5).standard_normal((8, 32)).astype(np.float32)


CASES = {"custom partitioning": _custom_partitioning, "approx_top_k": _approx_top_k}


@pytest.mark.parametrize("feature", list(CASES))
def test_the_gspmd_route_sends_it_to_the_sdy_route_with_a_warning(mesh, feature):
    function, argument = CASES[feature](mesh)
    expected = np.asarray(function(argument))
    assert gspmd_route_limit(function.lower(argument).as_text()) == feature
    with pysdy.jax.pipeline_hook(route="gspmd"), pytest.warns(pysdy.jax.PysdyFallbackWarning) as caught:
        result = function(argument)
    assert [str(w.message) for w in caught] == [
        f"'{pysdy.jax.compilations()[-1].module_name}' has {feature}, which the gspmd route cannot carry: "
        "it takes the sdy route"
    ]
    assert pysdy.jax.compilations()[-1].route == "sdy"
    assert mismatch(np.asarray(result), expected) is None


def test_the_sdy_route_hands_approx_top_k_its_sharding_as_constraints(mesh):
    """jaxlib's compile path rejects any sharding on an ApproxTopK custom call: the sdy route, which hands every
    op's sharding over as constraints on its results (runtime/shardings_as_constraints.py), compiles it."""
    function, argument = _approx_top_k(mesh)
    expected = np.asarray(function(argument))
    with pysdy.jax.pipeline_hook(route="sdy"), warnings.catch_warnings():
        warnings.simplefilter("error", pysdy.jax.PysdyWarning)
        result = jax.jit(lambda x: jax.lax.approx_max_k(x, 2)[0] + 0, in_shardings=NamedSharding(mesh, P("x", None)))(
            argument
        )
    record = pysdy.jax.compilations()[-1]
    assert record.route == "sdy" and record.notes == ()
    [call] = [line for line in record.exported_module.splitlines() if "@ApproxTopK" in line]
    assert "sdy.sharding" not in call
    assert re.search(r"sdy\.sharding_constraint %\w+#0 <@\w+, \[\{\"x\"", record.exported_module), record.exported_module
    assert mismatch(np.asarray(result), expected) is None
