"""Adjacent function pipelines run as MLIR runs them, function by function, whatever mixes them: checked
against jaxlib's C++ passes, where a failure on a later function shows what already ran on earlier ones."""

import pytest
from jaxlib.mlir import ir, passmanager

from child_process import in_child_process
from pysdy import versions
from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import parse_pipeline, run_pipeline

MESHES = """
sdy.mesh @m3 = <["x"=2, "y"=2, "z"=2]>
sdy.mesh @maximal_0 = <[], device_ids=[0]>
"""

FIRST = """
func.func @first(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@m3, [{"x"}, {"y"}]> : tensor<16x8xf32>
  %1 = stablehlo.abs %0 : tensor<16x8xf32>
  %2 = stablehlo.abs %0 : tensor<16x8xf32>
  %3 = stablehlo.add %1, %2 : tensor<16x8xf32>
  return %3 : tensor<16x8xf32>
}
"""

# sdy-reshard-to-collectives fails on this function (no collectives reach a maximal sharding) on the lines where it
# does not keep reshards to maximal meshes.
FAILING_SECOND = """
func.func @second(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@maximal_0, []> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
"""

SECOND = """
func.func @second(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@m3, [{}, {"x"}]> : tensor<16x8xf32>
  %1 = stablehlo.negate %0 : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}
"""

PIPELINES = [
    "func.func(sdy-reshard-to-collectives),func.func(sdy-populate-op-sharding-rules)",
    "func.func(sdy-reshard-to-collectives,sdy-populate-op-sharding-rules)",
    "func.func(sdy-reshard-to-collectives),func.func(cse),func.func(sdy-populate-op-sharding-rules)",
    "func.func(sdy-reshard-to-collectives,cse),func.func(sdy-populate-op-sharding-rules{conservative-propagation=true})",
]


def _outcome(run, text: str) -> tuple[list[str], str]:
    """Every error as `location: message` (none on success) and the module as the run left it."""
    with make_context():
        module = ir.Module.parse(text)
        try:
            run(module)
            errors = []
        except ir.MLIRError as failure:
            errors = [f"{d.location}: {d.message}" for d in failure.error_diagnostics]
        return errors, str(module)


@in_child_process
def _cpp_outcome(pipeline: str, text: str) -> tuple[list[str], str]:
    return _outcome(lambda m: passmanager.PassManager.parse(f"builtin.module({pipeline})").run(m.operation), text)


@pytest.mark.parametrize("second", [FAILING_SECOND, SECOND], ids=["failing_second", "second"])
@pytest.mark.parametrize("pipeline", PIPELINES)
def test_adjacent_function_pipelines_run_function_by_function_as_cpp(pipeline, second):
    text = MESHES + FIRST + second
    expected = _cpp_outcome(pipeline, text)
    actual = _outcome(lambda m: run_pipeline(m, parse_pipeline(pipeline)), text)
    assert actual == expected


@pytest.mark.skipif(
    versions.installed().reshards_keep_maximal_meshes, reason="this line's reshard-to-collectives keeps the reshard"
)
def test_a_later_pass_has_run_on_the_first_function_when_the_second_fails():
    """Shows the case checks the order: the rules of the second pass are on @first."""
    errors, module = _outcome(lambda m: run_pipeline(m, parse_pipeline(PIPELINES[0])), MESHES + FIRST + FAILING_SECOND)
    assert len(errors) == 1 and "failed to legalize operation 'sdy.reshard'" in errors[0]
    assert "sdy.sharding_rule" in module and "sdy.all_to_all" in module


def _failing(name: str, body: str) -> str:
    return f"""
func.func @{name}(%arg0: tensor<16x8xf32> {{sdy.sharding = #sdy.sharding<@m3, [{{"x"}}, {{}}], unreduced={{"y"}}>}}) -> tensor<16x8xf32> {{
{body}}}
"""


# A reshard to a maximal sharding, which sdy-reshard-to-collectives fails on where it does not keep it.
TO_MAXIMAL = """  %0 = sdy.reshard %arg0 <@maximal_0, []> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
"""
# An op dropping an unreduced axis without a reshard, which sdy-verify-unreduced-axes reports where it exists.
DROPPING_UNREDUCED = """  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{"x"}, {}]>]>} : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
"""


@pytest.mark.parametrize(
    "failing_pass, body",
    [
        pytest.param(
            "sdy-reshard-to-collectives", TO_MAXIMAL, id="reshard-to-collectives",
            marks=pytest.mark.skipif(versions.installed().reshards_keep_maximal_meshes, reason="kept on this line"),
        ),
        pytest.param(
            "sdy-verify-unreduced-axes", DROPPING_UNREDUCED, id="verify-unreduced-axes",
            marks=pytest.mark.skipif(not versions.installed().verify_unreduced_axes, reason="not on this line"),
        ),
    ],
)
def test_functions_after_a_failed_one_still_run_as_cpp(failing_pass, body):
    """A function pass failing on one function does not stop the next: every failing function is reported, in
    order, and the later passes have run on the functions that did not fail."""
    pipeline = f"func.func({failing_pass},sdy-populate-op-sharding-rules)"
    text = MESHES + _failing("failing_a", body) + FIRST + _failing("failing_b", body)
    expected = _cpp_outcome(pipeline, text)
    assert len(expected[0]) == 2 and "sdy.sharding_rule" in expected[1]
    assert _outcome(lambda m: run_pipeline(m, parse_pipeline(pipeline)), text) == expected
