"""Each import pass, C++ and pysdy, on hand-written edge cases (`cases/*.mlir`, split on `// -----`):
the printed modules, or the first error message, must be identical."""

from __future__ import annotations

import os

import pytest
from jaxlib.mlir import ir

from child_process import ChildProcessCrash, in_child_process
from import_oracle import cpp_steps, run_cpp, run_py
from pysdy import versions
from pysdy.dialects.context import make_context
from pysdy.passes.diagnostics import warnings_to
from pysdy.passes.pipeline import PipelineError, parse_pipeline, run_pipeline

CASES_DIR = os.path.join(os.path.dirname(__file__), "cases")
CALL_GRAPH_CASES = ("call_graphs", "constants")
ALL_CASES = tuple(sorted(f[: -len(".mlir")] for f in os.listdir(CASES_DIR) if f.endswith(".mlir")))

# Every case file here has a @main where a pass needs one (C++'s add-func-data-flow-edges aborts without).
PASS_CASES = {
    "sdy-lift-inlined-meshes": ("inlined_meshes", "data_flow_ops", "size_one_axes"),
    "sdy-inline-meshes": ("inlined_meshes", "data_flow_ops", "size_one_axes"),
    "sdy-remove-size-one-axes": ("size_one_axes", "data_flow_ops", "inlined_meshes"),
    "sdy-manual-axes-cleanup": ("manual_axes", "data_flow_ops"),
    "sdy-add-data-flow-edges": ("data_flow_ops", "sharding_constraints"),
    "sdy-apply-sharding-constraints": ("sharding_constraints", "data_flow_ops"),
    "sdy-add-data-flow-edges,sdy-apply-sharding-constraints": ("sharding_constraints", "data_flow_ops"),
    "sdy-sharding-group-import": ("sharding_groups",),
    "sdy-constant-or-scalar-splitter": ("constants", "data_flow_ops", "call_graphs"),
    "sdy-propagate-sharding-from-func-to-call": CALL_GRAPH_CASES,
    "sdy-flatten-call-graph": CALL_GRAPH_CASES,
    "sdy-pre-order-funcs": CALL_GRAPH_CASES,
    "sdy-add-func-data-flow-edges": CALL_GRAPH_CASES,
    "sdy-import-func-calls": CALL_GRAPH_CASES,
    "sdy-import-func-calls{add-data-flow-edges-on-named-computations=false}": CALL_GRAPH_CASES,
    "sdy-import-pipeline": ALL_CASES,
    "sdy-import-pipeline{dedup-functions-fully=true}": ALL_CASES,
}


def _parts(case: str) -> list[str]:
    with open(os.path.join(CASES_DIR, case + ".mlir")) as f:
        return f.read().split("// -----")


PARAMS = [
    pytest.param(pipeline, case, index, id=f"{pipeline}-{case}-{index}")
    for pipeline, cases in PASS_CASES.items()
    for case in cases
    for index in range(len(_parts(case)))
]


@pytest.mark.parametrize("pipeline,case,index", PARAMS)
def test_pass_matches_cpp(pipeline, case, index):
    text = _parts(case)[index]
    if _aborts_without_main(pipeline, text):
        with pytest.raises(ChildProcessCrash, match="Failed to lookup function: main"):
            run_cpp(text, pipeline)
        assert run_py(text, pipeline) == NO_MAIN_ERROR
        return
    assert run_py(text, pipeline) == run_cpp(text, pipeline)


NO_MAIN_ERROR = (
    "error: sdy-apply-sharding-constraints needs a function @main, or a single function "
    "(jaxlib's C++ aborts without)"
)


def _aborts_without_main(pipeline: str, text: str) -> bool:
    """Whether jaxlib's C++ aborts on `text` (no @main, and not a single function) in `pipeline`'s
    sdy-apply-sharding-constraints."""
    needs_main = versions.installed().apply_sharding_constraints_needs_main
    if not needs_main or "func.func @main(" in text or text.count("func.func ") == 1:
        return False
    return any(step.startswith("sdy-apply-sharding-constraints") for step in cpp_steps(pipeline))


@in_child_process(fresh=True)
def _cloned_body_warnings(runs: int) -> list[str]:
    """The warnings of `runs` runs of sdy-import-func-calls, each on its own module, in one new process."""
    warnings = []
    for _ in range(runs):
        with make_context(), warnings_to(lambda location, message: warnings.append(message)):
            module = ir.Module.parse(_parts("call_graphs")[0])
            run_pipeline(module, parse_pipeline("sdy-import-func-calls"))
    return warnings


def test_import_func_calls_warns_once_per_process_about_cloned_bodies():
    """Shardy's C++ warns with a static once-flag: the first cloned body in a process, never again."""
    expected = ["function @foo has multiple call ops, we need to clone the function body for each call"]
    assert _cloned_body_warnings(1) == expected
    assert _cloned_body_warnings(3) == expected


IF_OP = """func.func @main(%arg0: tensor<8xf32>, %p: tensor<i1>) -> tensor<8xf32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %arg0 : tensor<8xf32>
  }, {
    stablehlo.return %arg0 : tensor<8xf32>
  }) : (tensor<i1>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""


@pytest.mark.parametrize("line", versions.LINES, ids=lambda line: line.name)
def test_if_results_get_data_flow_edges_by_line(line):
    """From jaxlib 0.12 on, stablehlo.if is a data-flow op like stablehlo.case; before, its results had no edge."""
    if line is not versions.installed():
        pytest.skip(f"jaxlib {line.name}'s C++ passes are not the installed ones")
    expected = run_cpp(IF_OP, "sdy-add-data-flow-edges")
    assert ("sdy.data_flow_edge %0 : tensor<8xf32>" in expected) == (line.line >= (0, 12)), expected
    assert run_py(IF_OP, "sdy-add-data-flow-edges") == expected


SINGLE_DEVICE_MESHES = """func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[3]>, []>},
    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
"""


@pytest.mark.parametrize("line", versions.LINES, ids=lambda line: line.name)
def test_lift_single_device_mesh_names_option_by_line(line):
    """jaxlib 0.12's sdy-lift-inlined-meshes can name a lifted single-device mesh `single_device_N`; earlier lines
    have no such option, and reject it."""
    if line is not versions.installed():
        pytest.skip(f"jaxlib {line.name}'s C++ passes are not the installed ones")
    pipeline = "sdy-lift-inlined-meshes{use-single-device-mesh-names=true}"
    if line.line >= (0, 12):
        for option in ("true", "false"):
            pipeline = f"sdy-lift-inlined-meshes{{use-single-device-mesh-names={option}}}"
            expected = run_cpp(SINGLE_DEVICE_MESHES, pipeline)
            name = "single_device_3" if option == "true" else "maximal_mesh_3"
            assert f"sdy.mesh @{name} = <[], device_ids=[3]>" in expected
            assert run_py(SINGLE_DEVICE_MESHES, pipeline) == expected
    else:
        with pytest.raises(ValueError, match="no such option use-single-device-mesh-names"):
            run_cpp(SINGLE_DEVICE_MESHES, pipeline)
        with make_context(), pytest.raises(PipelineError, match="no such option 'use-single-device-mesh-names'"):
            run_pipeline(ir.Module.parse(SINGLE_DEVICE_MESHES), parse_pipeline(pipeline))


@pytest.mark.parametrize("text", ["sdy.mesh @mesh = <[\"x\"=2]>\n", _parts("inlined_meshes")[1]], ids=["no_function", "two"])
def test_apply_sharding_constraints_without_main(text):
    """jaxlib 0.12 aborts on a module without @main that is not a single function; pysdy refuses it there. Earlier
    lines run the pass on any module."""
    pipeline = "sdy-apply-sharding-constraints"
    if versions.installed().apply_sharding_constraints_needs_main:
        with pytest.raises(ChildProcessCrash, match="Failed to lookup function: main"):
            run_cpp(text, pipeline)
        assert run_py(text, pipeline) == NO_MAIN_ERROR
    else:
        assert run_py(text, pipeline) == run_cpp(text, pipeline)
