"""The pysdy route's hand-off form: a per-device module wrapped in one fully manual computation, or left as it is where
nothing is split, refused where @main holds partial values."""

from __future__ import annotations

import pytest
from jaxlib.mlir import ir

from pysdy.dialects.context import make_context
from pysdy.runtime.errors import RuntimeInputError
from pysdy.runtime.manual_wrapping import wrap_in_manual_computation

_LOCAL = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @empty_mesh = <[]>
func.func @main(%arg0: tensor<2x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{}}]{unreduced}>}},
                %arg1: tensor<i32> {{sdy.sharding = #sdy.sharding<@empty_mesh, []>}})
    -> (tensor<2x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{}}]>}}) {{
  %0 = stablehlo.convert %arg1 {{sdy.sharding = #sdy.sharding_per_value<[<@empty_mesh, []>]>}} : (tensor<i32>) -> tensor<f32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x8xf32>
  %2 = stablehlo.multiply %arg0, %1 : tensor<2x8xf32>
  return %2 : tensor<2x8xf32>
}}
"""
_GLOBAL_TYPES = "(tensor<4x8xf32>, tensor<i32>) -> tensor<4x8xf32>"


def _wrapped(text: str, partitions: int) -> str:
    with make_context():
        module = ir.Module.parse(text)
        global_types = ir.FunctionType(ir.Type.parse(_GLOBAL_TYPES))
        wrap_in_manual_computation(module, global_types, partitions)
        module.operation.verify()
        return str(module)


def test_a_split_module_is_wrapped_and_an_empty_mesh_sharding_read_as_replicated():
    wrapped = _wrapped(_LOCAL.format(unreduced=""), 4)
    assert 'manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, []>]' in wrapped
    assert 'manual_axes={"x", "y"}' in wrapped
    assert "func.func @main(%arg0: tensor<4x8xf32>" in wrapped
    assert "stablehlo.convert %arg3 : (tensor<i32>) -> tensor<f32>" in wrapped  # inner shardings dropped


def test_one_partition_is_its_own_per_device_program():
    wrapped = _wrapped(_LOCAL.format(unreduced=""), 1)
    assert "manual_computation" not in wrapped and "sdy.sharding" not in wrapped
    assert "func.func @main(%arg0: tensor<2x8xf32>, %arg1: tensor<i32>) -> tensor<2x8xf32>" in wrapped


def test_shardings_only_on_an_empty_mesh_split_nothing():
    text = _LOCAL.format(unreduced="").replace('<@mesh, [{"x"}, {}]>', "<@empty_mesh, [{}, {}]>")
    text = text.replace("tensor<2x8xf32>", "tensor<4x8xf32>")
    wrapped = _wrapped(text, 4)
    assert "manual_computation" not in wrapped and "sdy.sharding" not in wrapped


def test_partial_values_at_main_are_refused():
    with pytest.raises(RuntimeInputError, match="@main's argument 0 has unreduced axes"):
        _wrapped(_LOCAL.format(unreduced=', unreduced={"y"}'), 4)
