"""The GSPMD hand-off refuses a module that makes an axis unreduced from values replicated along it, and accepts
unreduced axes that come from a sharded reduction factor or from unreduced operands."""

from __future__ import annotations

import pytest
from jaxlib.mlir import ir

from pysdy.dialects.context import make_context
from pysdy.runtime.errors import RuntimeInputError
from pysdy.runtime.unreduced_sources import refuse_unreduced_from_replicated

_MESH = 'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'

REFUSED = {
    "convert_of_replicated_argument": (
        """
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  %0 = stablehlo.convert %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x"}>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}""",
        'the result of stablehlo.convert is unreduced along "x"',
    ),
    "reshard_of_replicated_value": (
        """
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"y"}], unreduced={"x"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}""",
        'the result of sdy.reshard is unreduced along "x"',
    ),
    "add_keeps_only_the_unreduced_axes_of_its_operands": (
        """
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x", "y"}>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}""",
        'the result of stablehlo.add is unreduced along "y"',
    ),
    "function_result_of_replicated_value": (
        """
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"y"}>}) {
  return %arg0 : tensor<8xf32>
}""",
        'the result 0 of @main is unreduced along "y"',
    ),
}

ACCEPTED = {
    "dot_over_sharded_contracting_dim": """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
    {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}], unreduced={"y"}>]>}
    : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}""",
    "convert_and_reshard_of_unreduced_argument": """
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}], unreduced={"x"}>}) {
  %0 = stablehlo.convert %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"x"}>]>} : tensor<8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"y"}], unreduced={"x"}> : tensor<8xf32>
  return %1 : tensor<8xf32>
}""",
}


def _check(body: str) -> None:
    with make_context():
        refuse_unreduced_from_replicated(ir.Module.parse(_MESH + body))


@pytest.mark.parametrize("name", REFUSED)
def test_unreduced_axis_from_replicated_values_is_refused(name):
    body, message = REFUSED[name]
    with pytest.raises(RuntimeInputError, match=message):
        _check(body)


@pytest.mark.parametrize("name", ACCEPTED)
def test_unreduced_axis_from_partial_values_is_accepted(name):
    _check(ACCEPTED[name])
