"""`pysdy-run` on a @main whose arguments or results have unreduced axes: an argument crosses to the devices as
partials whose reduction is the host value, a result comes back as the reduction of its partials, by the kind main's
sharding names; values equal numpy's, never a partial or a value counted once per device."""

from __future__ import annotations

import jax_corpus  # noqa: F401  (gives JAX its 8 CPU devices before the backend starts)
import numpy as np
import pytest
from line_side import when
from runtime_runs import run_cli

MESH = 'sdy.mesh @mesh = <["data"=4, "model"=2]>'


def _module(argument: str, result: str, body: str) -> str:
    return f"""
module @m attributes {{mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32}} {{
  {MESH}
  func.func public @main(%arg0: tensor<16x8xi32> {{sdy.sharding = #sdy.sharding<@mesh, {argument}>}})
      -> (tensor<8xi32> {{sdy.sharding = #sdy.sharding<@mesh, {result}>}}) {{
    {body}
  }}
}}
"""


def _reduce(kind: str, result: str) -> str:
    init, body = {"sum": ("0", "add"), "max": ("-2147483648", "maximum"), "min": ("2147483647", "minimum")}[kind]
    return f"""%init = stablehlo.constant dense<{init}> : tensor<i32>
    %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.{body} across dimensions = [0] : (tensor<16x8xi32>, tensor<i32>) -> tensor<8xi32>
    %1 = sdy.sharding_constraint %0 <@mesh, {result}> : tensor<8xi32>
    return %1 : tensor<8xi32>"""


def _run(tmp_path, text: str, value: np.ndarray, route: str = "sdy") -> np.ndarray:
    source, inputs, outputs = tmp_path / "m.mlir", tmp_path / "in.npz", tmp_path / "out.npz"
    source.write_text(text)
    np.savez(inputs, arg0=value)
    arguments = [str(source), "--inputs", str(inputs), "--outputs", str(outputs), "--check", "--route", route]
    status, output, error = run_cli(arguments)
    assert status == 0, error
    assert "check against one device, shardings removed: passed" in output
    with np.load(outputs) as results:
        return results["result0"]


# Distinct, all-negative values: a partial, or a value counted once per device, differs from the reduction.
VALUE = -np.arange(1, 16 * 8 + 1, dtype=np.int32).reshape(16, 8)[np.random.default_rng(0).permutation(16)]


ROUTES = pytest.mark.parametrize("route", ["sdy", "gspmd"])


@ROUTES
def test_a_sum_left_unreduced_comes_back_summed(tmp_path, route):
    result = '[{"model"}], unreduced={"data"}'
    text = _module('[{"data"}, {"model"}]', result, _reduce("sum", result))
    np.testing.assert_array_equal(_run(tmp_path, text, VALUE, route), VALUE.sum(axis=0))


@when("unreduced_reduction_kinds")
@ROUTES
@pytest.mark.parametrize("kind", ["max", "min"])
def test_a_max_or_min_left_unreduced_comes_back_reduced_with_its_kind(tmp_path, kind, route):
    result = f'[{{"model"}}], unreduced={kind}{{"data"}}'
    text = _module('[{"data"}, {"model"}]', result, _reduce(kind, result))
    expected = VALUE.max(axis=0) if kind == "max" else VALUE.min(axis=0)
    np.testing.assert_array_equal(_run(tmp_path, text, VALUE, route), expected)


@ROUTES
def test_an_unreduced_result_copied_on_other_devices_is_summed_once(tmp_path, route):
    """With "model" replicated, each partial sits on two devices: the sum takes each once."""
    result = "[{}], unreduced={\"data\"}"
    text = _module('[{"data"}, {}]', result, _reduce("sum", result))
    np.testing.assert_array_equal(_run(tmp_path, text, VALUE, route), VALUE.sum(axis=0))


@ROUTES
def test_a_value_unreduced_along_every_axis_comes_back_summed(tmp_path, route):
    """Every device holds a partial of the whole value (XLA's `{unreduced}`)."""
    result = '[{}], unreduced={"data", "model"}'
    text = _module('[{"data", "model"}, {}]', result, _reduce("sum", result))
    np.testing.assert_array_equal(_run(tmp_path, text, VALUE, route), VALUE.sum(axis=0))


@ROUTES
def test_an_unreduced_argument_reaches_the_devices_as_partials_of_the_host_value(tmp_path, route):
    """Reduced again on the devices (a sharding constraint to replicated), the argument is the host value."""
    text = f"""
module @m attributes {{mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32}} {{
  {MESH}
  func.func public @main(%arg0: tensor<8xi32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"model"}}], unreduced={{"data"}}>}})
      -> (tensor<8xi32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"model"}}]>}}) {{
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{{"model"}}]> : tensor<8xi32>
    return %0 : tensor<8xi32>
  }}
}}
"""
    np.testing.assert_array_equal(_run(tmp_path, text, VALUE[0], route), VALUE[0])
