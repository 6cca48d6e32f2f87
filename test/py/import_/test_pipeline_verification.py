"""A pipeline pass verifies where jaxlib's verifier can tell: after the steps that leave invalid IR, and at its end
(the gather-scatter batching case is in test_explicit_gather_scatter_batching.py)."""

from import_oracle import run_cpp, run_py
from pysdy import versions
from pysdy.passes.pipeline import NestedPipeline, PassStep, _runs_by_verification
from pysdy.passes.propagation.propagation_pipeline import PropagationPipelinePass

# Inlining @callee into a named computation gives the manual computation's result a data-flow edge, which the
# verifier rejects (a data-flow edge's input must not come from an sdy op other than a named computation).
EDGE_ON_A_MANUAL_COMPUTATION = """
sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%a: tensor<4xf32>) {
    sdy.return %a : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @callee(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = sdy.named_computation<"nc">(%arg0) (%a: tensor<8xf32>) {
    %m = stablehlo.negate %a : tensor<8xf32>
    sdy.return %m : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %3 = stablehlo.add %1, %2 : tensor<8xf32>
  return %0, %3 : tensor<8xf32>, tensor<8xf32>
}
func.func private @callee(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""

def test_only_the_steps_that_leave_invalid_ir_are_verified_after():
    steps = PropagationPipelinePass(enable_explicit_gather_scatter_batching=True).steps()
    verified = [run for run, verify in _runs_by_verification(steps) if verify]
    # (the func data-flow edges are added before calls are imported only on the lines that do so)
    edges = [(PassStep("sdy-add-func-data-flow-edges"),)] if versions.installed().import_calls_after_func_edges else []
    imported = len(edges) + 2
    assert verified[:imported] == [
        (NestedPipeline("func.func", (PassStep("sdy-explicit-gather-scatter-batching"),)),),
        *edges,
        (PassStep("sdy-import-func-calls", (("add-data-flow-edges-on-named-computations", "true"),)),),
    ]
    # Then the reshards of calls whose shardings conflict with their callee's.
    assert verified[imported] == (PassStep("sdy-insert-func-call-reshards"),)
    # The export steps end the pipeline: explicit reshards (options vary by line) are verified after too, with the
    # function steps next to them (the unreduced-axes verifier, on the lines that have it), as MLIR groups them.
    [group] = verified[imported + 1 :]
    names = [step.name for nested in group for step in nested.steps]
    assert all(nested.anchor == "func.func" for nested in group)
    assert names[-1] == "sdy-insert-explicit-reshards" and set(names[:-1]) <= {"sdy-verify-unreduced-axes"}
    assert [step for run, _ in _runs_by_verification(steps) for step in run] == list(steps)


def test_a_step_leaving_invalid_ir_fails_the_pipeline_as_jaxlibs_verifier_does():
    expected = run_cpp(EDGE_ON_A_MANUAL_COMPUTATION, "sdy-propagation-pipeline")
    assert expected.startswith("error: 'sdy.data_flow_edge' op expected input")
    assert run_py(EDGE_ON_A_MANUAL_COMPUTATION, "sdy-propagation-pipeline") == expected
