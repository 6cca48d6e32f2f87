"""Whole values marked partial sums (`unreduced`) in `sdy-convert-global-to-local`: pysdy keeps them on the first device
of each group along those axes, zeros on the others, as XLA's own route does, and its per-device program gives what
the module gives. jax 0.12's C++ does so for a constant (pysdy's output is the same); before, it left the constant
whole on every device, and on every line it leaves an op's result so: the sum over the group then counts the value
once per device, which these tests show by running the C++'s program."""

from __future__ import annotations

import jax_corpus  # noqa: F401 (gives JAX its 8 CPU devices before the backend starts)
import located_outcomes
import numpy as np
from child_process import in_child_process
from line_side import when
from pysdy.runtime.comparison import mismatch
from pysdy.runtime.devices import select_devices
from pysdy.runtime.per_device import per_device_program, run_per_device
from pysdy.runtime.per_device_check import check_per_device

PASS = "sdy-convert-global-to-local"

# jax 0.12 lowers the gradient of a shard_map reading a reduced input so; its value is 8x4 ones (the reduce-scatter
# sums the constant's partial values over "y"). (jax 0.12's XLA refuses to compile this module whole, so it is
# checked against that value.)
CONSTANT = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main() -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [], unreduced={"y"}>]>} dense<1.000000e+00> : tensor<f32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [], unreduced={"y"}>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%arg0: tensor<f32>) {
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %3 = "stablehlo.reduce_scatter"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %4 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %4 : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x2xf32>
    sdy.return %3 : tensor<4x2xf32>
  } : (tensor<f32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
"""

# A whole value marked partial, then finished by an all-reduce; the module it implements converts the value alone.
CONVERTED = """sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.convert %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}], unreduced={"y"}>]>} : tensor<8xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}
"""
CONVERTED_GLOBAL = """sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.convert %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""


@in_child_process
def _constant_problem(local_text: str) -> str | None:
    """What differs in the per-device program's output of CONSTANT from its value."""
    program = per_device_program(CONSTANT, local_text, 4)
    outputs, problems = run_per_device(program, [], select_devices(4))
    return "; ".join(problems) or mismatch(np.asarray(outputs[0]), np.ones((8, 4), np.float32))


@in_child_process
def _problems(global_text: str, local_text: str, devices: int) -> list[str]:
    """What differs when the per-device program runs against `global_text` on one device."""
    return check_per_device(global_text, local_text, [np.linspace(1, 8, 8, dtype=np.float32)], devices).problems


def test_a_constant_marked_partial_is_kept_on_one_device_of_each_group():
    assert _constant_problem(located_outcomes.pysdy(CONSTANT, PASS)) is None


@when("convert_global_to_local_masks_partial_constants")
def test_as_cpp_for_a_constant():
    assert located_outcomes.pysdy(CONSTANT, PASS) == located_outcomes.cpp(CONSTANT, PASS)


@when("convert_global_to_local_masks_partial_constants", False)
def test_where_the_cpp_keeps_the_constant_on_every_device_its_program_runs_wrong():
    cpp = located_outcomes.cpp(CONSTANT, PASS)
    assert cpp != located_outcomes.pysdy(CONSTANT, PASS)
    assert _constant_problem(cpp) is not None, "the C++'s program runs right"


def test_an_op_result_marked_partial_is_kept_on_one_device_of_each_group_where_the_cpp_keeps_it_on_all():
    pysdy, cpp = located_outcomes.pysdy(CONVERTED, PASS), located_outcomes.cpp(CONVERTED, PASS)
    assert _problems(CONVERTED_GLOBAL, pysdy, 8) == []
    assert _problems(CONVERTED_GLOBAL, cpp, 8), "the C++'s program runs right"
