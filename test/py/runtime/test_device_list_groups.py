"""Collectives naming their devices by mesh axes (ReplicaGroupV3) get the device lists jaxlib's C++ writes for the
same collectives without ReplicaGroupV3."""

from __future__ import annotations

import re

import pytest
from jaxlib.mlir import ir
from line_side import when
from oracle import cpp_output

from pysdy.dialects.context import make_context
from pysdy.runtime.device_list_groups import with_device_list_groups

_COLLECTIVES = """
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]{devices}>
func.func @main(%arg0: tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{}}], unreduced={{"x", "y", "z"}}>}})
    -> (tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"z"}}]>}}) {{
  %0 = sdy.all_reduce {{"x", "y"}} %arg0 out_sharding=<@mesh, [{{}}, {{}}], unreduced={{"z"}}> : tensor<8x8xf32>
  %1 = sdy.reduce_scatter [{{"z"}}, {{}}] %0 out_sharding=<@mesh, [{{"z"}}, {{}}]> : tensor<8x8xf32>
  %2 = sdy.all_slice [{{}}, {{"x"}}] %1 out_sharding=<@mesh, [{{"z"}}, {{"x"}}]> : tensor<8x8xf32>
  %3 = sdy.all_gather [{{}}, {{"x"}}] %2 out_sharding=<@mesh, [{{"z"}}, {{}}]> : tensor<8x8xf32>
  %4 = sdy.all_to_all [{{"z"}}: 0->1] %3 out_sharding=<@mesh, [{{}}, {{"z"}}]> : tensor<8x8xf32>
  %5 = sdy.all_slice [{{"x"}}, {{}}] %4 out_sharding=<@mesh, [{{"x"}}, {{"z"}}]> : tensor<8x8xf32>
  return %5 : tensor<8x8xf32>
}}
"""


def _groups(text: str) -> list[str]:
    return re.findall(r"replica_groups = ([^,]*>[^,]*>|dense<[^>]*>)", text)


@when("convert_global_to_local_device_counts")
@pytest.mark.parametrize("devices", ["", ", device_ids=[7, 6, 5, 4, 3, 2, 1, 0]", ", device_ids=[0, 2, 4, 6, 1, 3, 5, 7]"])
def test_device_lists_are_the_cpps_without_rgv3(devices):
    text = _COLLECTIVES.format(devices=devices)
    with_mesh_axes = cpp_output(text, "sdy-convert-global-to-local{enable-rgv3=true}")
    expected = cpp_output(text, "sdy-convert-global-to-local{enable-rgv3=false}")
    assert "replica_group_mesh_axes" in with_mesh_axes and "replica_group_mesh_axes" not in expected
    with make_context():
        module = ir.Module.parse(with_mesh_axes)
        with_device_list_groups(module.operation)
        actual = str(module)
    assert "replica_group_mesh_axes" not in actual
    assert len(_groups(expected)) == 4
    assert _groups(actual) == _groups(expected)
