"""sdy-apply-sharding-constraints' debug options record exactly what jaxlib's C++ records.

With `debug-propagation-edge-sharding`, each constraint whose sharding the pass
gives its input is a propagation step (numbered on from the module's last),
its axes going from the constraint's result to its operand; with
`debug-sharding-origins`, that input's axes take the constraint's origin.
Manual computations' in_shardings and constraints on data-flow targets record
nothing. A propagation pass after it numbers its steps on and keeps the origins.

Left out: origins after propagation on modules with sharding groups (jaxlib's
are garbage there, see test_debug_info); where jaxlib crashes pysdy must still
run, or refuse a manual computation without data-flow edges.
"""

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from jax_corpus import corpus, program_names
from propagation_oracle import cpp_outcome, cpp_outcome_unless_it_crashes, first_difference, pysdy_outcome
from random_modules import modules
from test_debug_info import OPTIONS, assert_refused_where_cpp_crashes, with_edge_sources_in_order

from pysdy import versions

MESH = 'sdy.mesh @mesh = <["a"=2, "b"=4]>\n'

CASES = {
    # Two constraints applied, one on a function argument; one left alone (its input is sharded).
    "applied_constraints": MESH + """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x16xf32>, %arg2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg2 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {"b"}]> : tensor<8x16xf32>
  %2 = stablehlo.negate %1 : tensor<8x16xf32>
  %3 = sdy.sharding_constraint %arg1 <@mesh, [{}, {"b"}]> : tensor<8x16xf32>
  %4 = sdy.sharding_constraint %arg0 <@mesh, [{"b"}, {}]> : tensor<8x16xf32>
  %5 = stablehlo.multiply %2, %3 : tensor<8x16xf32>
  %6 = stablehlo.add %5, %4 : tensor<8x16xf32>
  return %6 : tensor<8x16xf32>
}
""",
    # A function result's sharding is an origin too (kept on the returned value).
    "result_sharding": MESH + """
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {"b"}]> : tensor<8x16xf32>
  %2 = stablehlo.negate %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
""",
    # A constraint on a data-flow target records nothing; in a chain, only the head is applied.
    "data_flow_target_and_chain": MESH + """
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<8x16xf32>, tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0#0 <@mesh, [{"a"}, {"b"}]> : tensor<8x16xf32>
  %2 = stablehlo.negate %arg1 : tensor<8x16xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{"b"}, {}]> : tensor<8x16xf32>
  %4 = sdy.sharding_constraint %3 <@mesh, [{}, {"b"}]> : tensor<8x16xf32>
  %5 = stablehlo.add %2, %4 : tensor<8x16xf32>
  return %1, %5 : tensor<8x16xf32>, tensor<8x16xf32>
}
""",
    # A replicated constraint takes a step of its own; steps follow the module's last; an op's own
    # sharding is no origin.
    "replicated_constraint_and_earlier_steps": MESH + """
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {}]> : tensor<8x16xf32>
  %2 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>, sdy.propagation_edges = #sdy.propagation_edges<[{step-4 = [{"a" = operand-0 -> [result-0]}]}]>} : tensor<8x16xf32>
  %3 = stablehlo.abs %arg1 : tensor<8x16xf32>
  %4 = sdy.sharding_constraint %3 <@mesh, [{"b", "a"}, {}]> : tensor<8x16xf32>
  return %1, %4, %2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
""",
    # A manual computation's in_shardings applied to an argument record nothing.
    "manual_computation_in_shardings": MESH + """
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {"b"}]> : tensor<8x16xf32>
  %2 = sdy.manual_computation(%1, %arg1) in_shardings=[<@mesh, [{"a"}, {"b"}]>, <@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) {
    %3 = stablehlo.add %x, %y : tensor<4x16xf32>
    sdy.return %3 : tensor<4x16xf32>
  } : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
""",
}

# Cases where an op's own sharding (no user sharding, so no origin) reaches a function result.
OWN_SHARDING_PROPAGATED = {"replicated_constraint_and_earlier_steps"}


def _pipelines(option: str) -> list[str]:
    apply = f"sdy-add-data-flow-edges,sdy-apply-sharding-constraints{{{OPTIONS[option]}}}"
    return [apply, f"{apply},sdy-basic-propagate{{{OPTIONS[option]}}}"]


def _assert_matches_cpp_unless_it_crashes(text: str, pipeline: str) -> None:
    actual = pysdy_outcome(text, pipeline)
    expected = cpp_outcome_unless_it_crashes(text, pipeline)
    if expected is not None:
        expected = with_edge_sources_in_order(expected)
        assert actual == expected, first_difference(expected, actual)


@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize("case", CASES)
def test_hand_written(case, option):
    pipelines = _pipelines(option)
    if case in OWN_SHARDING_PROPAGATED and option != "edges":
        pipelines = pipelines[:1]  # jaxlib's origins are garbage (": 0") where it propagates
    for pipeline in pipelines:
        expected = with_edge_sources_in_order(cpp_outcome(CASES[case], pipeline))
        actual = pysdy_outcome(CASES[case], pipeline)
        assert actual == expected, f"{pipeline}\n{first_difference(expected, actual)}"


@pytest.mark.parametrize("case", CASES)
def test_edges_without_data_flow_edges(case):
    """Edges only: with origins, jaxlib crashes on a manual computation without data-flow edges."""
    pipeline = f"sdy-apply-sharding-constraints{{{OPTIONS['edges']}}}"
    expected = with_edge_sources_in_order(cpp_outcome(CASES[case], pipeline))
    actual = pysdy_outcome(CASES[case], pipeline)
    assert actual == expected, first_difference(expected, actual)


@pytest.mark.parametrize("option", ["origins", "both"])
def test_origins_with_manual_computation_without_data_flow_edges(option):
    """From jaxlib 0.12 the manual computation without edges gets its name and gives no origins; before, jaxlib
    crashes and pysdy refuses."""
    text = CASES["manual_computation_in_shardings"]
    pipeline = f"sdy-apply-sharding-constraints{{{OPTIONS[option]}}}"
    if versions.installed().origins_skip_manual_computations_without_edges:
        expected = with_edge_sources_in_order(cpp_outcome(text, pipeline))
        actual = pysdy_outcome(text, pipeline)
        assert actual == expected, first_difference(expected, actual)
        assert 'sdy.sharding_origin_name = "mc_0"' in actual and "mc_0_input" not in actual
    else:
        assert_refused_where_cpp_crashes(text, pipeline)


@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize("program", program_names())
def test_corpus(program, option):
    text = corpus()[program]
    if "sdy.sharding_constraint" not in text:
        pytest.skip("no constraint")
    apply, with_propagation = _pipelines(option)
    _assert_matches_cpp_unless_it_crashes(text, apply)
    if "sdy.sharding_group" not in text or option == "edges":
        _assert_matches_cpp_unless_it_crashes(text, with_propagation)


@settings(
    max_examples=60,
    phases=(Phase.explicit, Phase.generate),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(text=modules())
def test_random_modules(text):
    apply, with_propagation = _pipelines("both")
    _assert_matches_cpp_unless_it_crashes(text, apply)
    _assert_matches_cpp_unless_it_crashes(text, _pipelines("edges")[1] if "sdy.sharding_group" in text else with_propagation)
