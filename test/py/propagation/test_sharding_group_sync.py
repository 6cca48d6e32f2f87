"""Sharding groups synced before propagation: pysdy's output and warnings equal jaxlib's C++ on hand-written modules.

Each module runs through `sdy-propagation-pipeline` (plain and with
`dedup-functions-fully=true`) as written, and through every propagation pass
after jaxlib's C++ `sdy-import-pipeline`. The warnings compared are Shardy's
sharding-group warning, with their locations.
"""

import pytest
from jaxlib.mlir import ir, passmanager

from child_process import in_child_process
from propagation_oracle import first_difference
from pysdy.dialects.context import make_context
from pysdy.passes.diagnostics import warnings_to
from pysdy.passes.pipeline import parse_pipeline, run_pipeline

MESH = 'sdy.mesh @mesh = <["a"=2, "b"=4]>\n'
T = "tensor<8x16xf32>"
GROUP_WARNING = "The initial operand shardings on the sharding groups of groupID:"

CASES = {
    # A constraint's sharding reaches the other member before propagation, closed as it is.
    "constraint_reaches_other_member": MESH + f"""
func.func @main(%arg0: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"a"}}, {{}}]>}}, %arg1: {T}) -> {T} {{
  %0 = stablehlo.add %arg0, %arg0 : {T}
  %1 = stablehlo.multiply %arg1, %arg1 : {T}
  %2 = sdy.sharding_constraint %1 <@mesh, [{{}}, {{"b"}}]> : {T}
  sdy.sharding_group %0 group_id=0 : {T}
  sdy.sharding_group %2 group_id=0 : {T}
  %3 = stablehlo.add %0, %2 : {T}
  return %3 : {T}
}}""",
    # jax.shard_alike of two values with different constraints: a warning and open constraints.
    "conflicting_constraints": MESH + f"""
func.func @main(%arg0: {T}) -> {T} {{
  %0 = stablehlo.negate %arg0 : {T}
  %1 = sdy.sharding_constraint %0 <@mesh, [{{"a"}}, {{}}]> : {T}
  %2 = stablehlo.tanh %arg0 : {T}
  %3 = sdy.sharding_constraint %2 <@mesh, [{{}}, {{"b"}}]> : {T}
  sdy.sharding_group %1 group_id=0 : {T}
  sdy.sharding_group %3 group_id=0 : {T}
  %4 = stablehlo.add %1, %3 : {T}
  return %4 : {T}
}}""",
    # Members of one op (a while's results) and function arguments; a second group in the loop body.
    "conflicting_while_results": MESH + f"""
func.func @main(%arg0: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"a"}}, {{}}]>}}, %arg1: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{"b"}}]>}}) -> {T} {{
  %0:2 = stablehlo.while(%x = %arg0, %y = %arg1) : {T}, {T}
    cond {{
      %c = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    }} do {{
      %n = stablehlo.negate %x : {T}
      sdy.sharding_group %n group_id=1 : {T}
      sdy.sharding_group %y group_id=1 : {T}
      stablehlo.return %n, %y : {T}, {T}
    }}
  sdy.sharding_group %arg0 group_id=0 : {T}
  sdy.sharding_group %arg1 group_id=0 : {T}
  sdy.sharding_group %0#1 group_id=0 : {T}
  sdy.sharding_group %0#0 group_id=0 : {T}
  %2 = stablehlo.add %0#0, %0#1 : {T}
  return %2 : {T}
}}""",
    # A manual computation's block argument syncs its free axes to an op of the body.
    "inside_manual_computation": MESH + f"""
func.func @main(%arg0: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"a"}}, {{"b"}}]>}}, %arg1: {T}) -> {T} {{
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{{"a"}}, {{?}}]>, <@mesh, [{{"a"}}, {{"b"}}]>] out_shardings=[<@mesh, [{{"a"}}, {{?}}]>] manual_axes={{"a"}} (%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) {{
    %1 = stablehlo.exponential %x : tensor<4x16xf32>
    %2 = stablehlo.multiply %y, %y : tensor<4x16xf32>
    sdy.sharding_group %1 group_id=0 : tensor<4x16xf32>
    sdy.sharding_group %y group_id=0 : tensor<4x16xf32>
    %3 = stablehlo.add %1, %2 : tensor<4x16xf32>
    sdy.return %3 : tensor<4x16xf32>
  }} : ({T}, {T}) -> {T}
  return %0 : {T}
}}""",
    # Block arguments of a manual computation with different in-shardings conflict.
    "conflicting_manual_computation_arguments": MESH + f"""
func.func @main(%arg0: {T}, %arg1: {T}) -> {T} {{
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{{"a"}}, {{}}]>, <@mesh, [{{"a"}}, {{"b"}}]>] out_shardings=[<@mesh, [{{"a"}}, {{?}}]>] manual_axes={{"a"}} (%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) {{
    sdy.sharding_group %x group_id=0 : tensor<4x16xf32>
    sdy.sharding_group %y group_id=0 : tensor<4x16xf32>
    %3 = stablehlo.add %x, %y : tensor<4x16xf32>
    sdy.return %3 : tensor<4x16xf32>
  }} : ({T}, {T}) -> {T}
  return %0 : {T}
}}""",
    # A sharding with a priority is synced as it is, before user-priority propagation hides it.
    "user_priorities": MESH + f"""
func.func @main(%arg0: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"a", ?}}p1, {{?}}]>}}, %arg1: {T}, %arg2: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{?}}, {{"b", ?}}p0]>}}) -> ({T}, {T}) {{
  %0 = stablehlo.add %arg0, %arg2 : {T}
  %1 = stablehlo.abs %arg1 : {T}
  sdy.sharding_group %arg0 group_id=0 : {T}
  sdy.sharding_group %1 group_id=0 : {T}
  return %0, %1 : {T}, {T}
}}""",
    # A group spanning a caller and a callee.
    "group_across_functions": MESH + f"""
func.func @main(%arg0: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"a"}}, {{}}]>}}) -> {T} {{
  %0 = stablehlo.negate %arg0 : {T}
  sdy.sharding_group %0 group_id=3 : {T}
  %1 = call @f(%0) : ({T}) -> {T}
  return %1 : {T}
}}
func.func private @f(%arg0: {T}) -> {T} {{
  %0 = stablehlo.abs %arg0 : {T}
  sdy.sharding_group %0 group_id=3 : {T}
  return %0 : {T}
}}""",
    # The same with a constraint in the callee.
    "group_across_functions_conflicting": MESH + f"""
func.func @main(%arg0: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"a"}}, {{}}]>}}) -> {T} {{
  %0 = stablehlo.negate %arg0 : {T}
  sdy.sharding_group %0 group_id=3 : {T}
  %1 = call @f(%0) : ({T}) -> {T}
  return %1 : {T}
}}
func.func private @f(%arg0: {T}) -> {T} {{
  %0 = stablehlo.abs %arg0 : {T}
  %1 = sdy.sharding_constraint %0 <@mesh, [{{}}, {{"b"}}]> : {T}
  sdy.sharding_group %1 group_id=3 : {T}
  sdy.sharding_group %arg0 group_id=3 : {T}
  return %1 : {T}
}}""",
    # Groups are keyed by the grouped value: a loop body's block argument (a target of the while's edge)
    # is set with its group but does not set the group when the edge's sharding changes.
    "while_body_block_arguments": MESH + f"""
func.func @main(%arg0: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"a"}}, {{}}]>}}, %arg1: {T}) -> {T} {{
  %0:2 = stablehlo.while(%x = %arg0, %y = %arg1) : {T}, {T}
    cond {{
      %c = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    }} do {{
      sdy.sharding_group %x group_id=0 : {T}
      sdy.sharding_group %y group_id=0 : {T}
      %n = stablehlo.negate %y : {T}
      stablehlo.return %x, %n : {T}, {T}
    }}
  return %0#1 : {T}
}}""",
    # Equal shardings everywhere: nothing to warn about.
    "same_sharding_on_every_member": MESH + f"""
func.func @main(%arg0: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"a"}}, {{}}]>}}, %arg1: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"a"}}, {{}}]>}}) -> {T} {{
  %0 = stablehlo.add %arg0, %arg1 : {T}
  %1 = sdy.sharding_constraint %0 <@mesh, [{{"a"}}, {{}}]> : {T}
  sdy.sharding_group %arg0 group_id=0 : {T}
  sdy.sharding_group %arg1 group_id=0 : {T}
  sdy.sharding_group %1 group_id=0 : {T}
  return %1 : {T}
}}""",
}

PIPELINES = ["sdy-propagation-pipeline", "sdy-propagation-pipeline{dedup-functions-fully=true}"]
PASSES = ["sdy-basic-propagate", "sdy-aggressive-propagate", "sdy-op-priority-propagate", "sdy-user-priority-propagate"]

Outcome = tuple[str, list[tuple[str, str]]]


def _group_warnings(warnings: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(location, message) for location, message in warnings if message.startswith(GROUP_WARNING)]


@in_child_process
def cpp_outcome(text: str, pipeline: str) -> Outcome:
    """The printed module and the (location, message) of each sharding-group warning of jaxlib's C++."""
    warnings = []
    with make_context() as context:
        context.attach_diagnostic_handler(lambda d: (warnings.append((str(d.location), d.message)), True)[1])
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(f"builtin.module({pipeline})").run(module.operation)
        return str(module), _group_warnings(warnings)


def pysdy_outcome(text: str, pipeline: str) -> Outcome:
    warnings = []
    with make_context(), warnings_to(lambda location, message: warnings.append((str(location), message))):
        module = ir.Module.parse(text)
        run_pipeline(module, parse_pipeline(pipeline))
        return str(module), _group_warnings(warnings)


def _assert_same(text: str, pipeline: str) -> None:
    (expected, expected_warnings), (actual, actual_warnings) = cpp_outcome(text, pipeline), pysdy_outcome(text, pipeline)
    assert actual == expected, first_difference(expected, actual)
    assert actual_warnings == expected_warnings


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("case", CASES)
def test_pipeline_matches_cpp(case, pipeline):
    _assert_same(CASES[case], pipeline)


@pytest.mark.parametrize("pass_", PASSES)
@pytest.mark.parametrize("case", CASES)
def test_pass_matches_cpp_after_import(case, pass_):
    imported, _ = cpp_outcome(CASES[case], "sdy-import-pipeline")
    _assert_same(imported, pass_)


def test_conflict_warns_once_per_group():
    """The conflicting cases do warn (so the comparison above compares something)."""
    _, warnings = cpp_outcome(CASES["conflicting_constraints"], "sdy-propagation-pipeline")
    assert [message.split(" do not")[0] for _, message in warnings] == [f"{GROUP_WARNING} 0"]
