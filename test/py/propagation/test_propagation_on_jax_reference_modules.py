"""sdy-propagation-pipeline gives exactly jaxlib's C++ output on modules JAX's own tests hand the hook (captured with
test/py/jax_api/pysdy_hook_plugin.py from JAX's shard_map_test and pjit_test, locations dropped)."""

import pytest

from oracle import cpp_output
from propagation_oracle import first_difference, pysdy_output

MODULES = {
    # shard_map_test.py::CustomPartitionerTest::test_partially_sharded_dim_with_auto
    "partially_sharded_dim_with_auto": """
module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=4, "j"=2]> {stablehlo.mesh = {axes = [{name = "i", size = 4 : i64}, {name = "j", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<4xf32> {jax.result_info = "result"}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"i", "j"}]> : tensor<8xf32>
    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"i", ?}]>] out_shardings=[<@mesh, [{"i", ?}]>] manual_axes={"i"} (%arg1: tensor<2xf32>) {
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
      %4 = sdy.sharding_constraint %3 <@mesh, []> : tensor<f32>
      %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %6 = sdy.sharding_constraint %5 <@mesh, [{?}]> : tensor<1xf32>
      sdy.return %6 : tensor<1xf32>
    } : (tensor<8xf32>) -> tensor<4xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"i", "j"}]> : tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}""",
    # pjit_test.py::ShardingInTypesTest::test_cet_unreduced
    "cet_unreduced": """
module @jit_convert_element_type attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<2x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<2x2xi32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) {
    %0 = stablehlo.convert %arg0 : tensor<2x2xi32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{}, {}], unreduced={"x"}> : tensor<2x2xi32>
    return %1 : tensor<2x2xi32>
  }
}""",
    # shard_map_test.py::ShardMapTest::test_reduced_pcast_fwd_unreduced_bwd, jax 0.12.0.1's lowering of the gradient:
    # jaxlib 0.12 keeps a manual computation's in_sharding on a function argument as a constraint.
    "reduced_pcast_fwd_unreduced_bwd": """
module @jit_g attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}]}}
  func.func public @main() -> (tensor<8xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = sdy.sharding_constraint %cst <@mesh, []> : tensor<f32>
    %1 = call @g(%0) : (tensor<f32>) -> tensor<8xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
    return %3 : tensor<8xf32>
  }
  func.func private @g(%arg0: tensor<f32>) -> tensor<8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}]> : tensor<16xf32>
    %2 = call @f(%1) : (tensor<16xf32>) -> tensor<8xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
    %4 = sdy.sharding_constraint %3 <@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
    return %4 : tensor<8xf32>
  }
  func.func private @f(%arg0: tensor<16xf32>) -> tensor<8xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{}], unreduced={"x"}>] manual_axes={"x"} (%arg1: tensor<8xf32>) {
      sdy.return %arg1 : tensor<8xf32>
    } : (tensor<16xf32>) -> tensor<8xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}""",
}


@pytest.mark.parametrize("name", MODULES)
def test_propagation_pipeline_matches_cpp(name):
    expected = cpp_output(MODULES[name], "sdy-propagation-pipeline")
    actual = pysdy_output(MODULES[name], "sdy-propagation-pipeline")
    assert actual == expected, first_difference(expected, actual)
