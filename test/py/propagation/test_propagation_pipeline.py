"""`sdy-propagation-pipeline`: jaxlib's step sequence, and jaxlib's output on every JAX corpus program."""

import re

import pytest

from jax_corpus import corpus, program_names
from line_side import when
from oracle import cpp_output, cpp_pass_pipeline
from propagation_oracle import first_difference, pysdy_output
from pysdy.passes.pipeline import pipeline_text
from pysdy.passes.propagation.propagation_pipeline import PropagationPipelinePass

_PASS_NAME = re.compile(r"(?:^|[,(])([a-z][a-z0-9.-]*)(?=[{,()]|$)")
# jaxlib's debug dumps between stages; pysdy leaves them out.
_NOT_MIRRORED = {"func.func", "sdy-save-module"}


def _pass_names(text: str) -> list[str]:
    return [name for name in _PASS_NAME.findall(text) if name not in _NOT_MIRRORED]


@pytest.mark.parametrize("dedup", [False, True])
def test_steps_are_jaxlib_expansion_of_the_pipeline(dedup):
    option = str(dedup).lower()
    expanded = cpp_pass_pipeline(f"sdy-propagation-pipeline{{dedup-functions-fully={option}}}")
    expected = _pass_names(expanded[len("builtin.module(") : -1])
    assert _pass_names(pipeline_text(PropagationPipelinePass(dedup_functions_fully=dedup).steps())) == expected


def _cases():
    for pipeline in ["sdy-propagation-pipeline", "sdy-propagation-pipeline{dedup-functions-fully=true}"]:
        for program in program_names():
            yield pytest.param(program, pipeline, id=f"{program}-{pipeline}")


@pytest.mark.parametrize("program,pipeline", list(_cases()))
def test_pipeline_matches_cpp_on_jax_programs(program, pipeline):
    text = corpus()[program]
    expected = cpp_output(text, pipeline)
    actual = pysdy_output(text, pipeline)
    assert actual == expected, first_difference(expected, actual)


# Copies of one function called at the top level and in manual computations over "a" and "b", marked
# with `sdy.func_manual_axes` as XLA's shard_map import marks them: with dedup-functions-fully the calls
# stay calls, and no call may end up pointed at a copy made for another manual context.
CALLS_IN_MANUAL_CONTEXTS = """sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x8xf32> {
  %0 = call @f(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{}, {?}]>] out_shardings=[<@mesh, [{}, {?}]>] manual_axes={"a"} (%x: tensor<8x8xf32>) {
    %2 = func.call @f_0(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = func.call @f_1(%2) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    sdy.return %3 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %4 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{?}, {}]>] out_shardings=[<@mesh, [{?}, {}]>] manual_axes={"b"} (%x: tensor<8x8xf32>) {
    %5 = func.call @f_2(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    sdy.return %5 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %6 = call @f_3(%4) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %6 : tensor<8x8xf32>
}
func.func private @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
func.func private @f_0(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> attributes {sdy.original_func_name = "f", sdy.func_manual_axes = #sdy<manual_axes{"a"}>} {
  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
func.func private @f_1(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> attributes {sdy.original_func_name = "f", sdy.func_manual_axes = #sdy<manual_axes{"a"}>} {
  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
func.func private @f_2(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> attributes {sdy.original_func_name = "f", sdy.func_manual_axes = #sdy<manual_axes{"b"}>} {
  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
func.func private @f_3(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> attributes {sdy.original_func_name = "f"} {
  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
"""


@pytest.mark.parametrize("pipeline", ["sdy-propagation-pipeline", "sdy-propagation-pipeline{dedup-functions-fully=true}"])
def test_pipeline_matches_cpp_on_calls_in_manual_contexts(pipeline):
    expected = cpp_output(CALLS_IN_MANUAL_CONTEXTS, pipeline)
    actual = pysdy_output(CALLS_IN_MANUAL_CONTEXTS, pipeline)
    assert actual == expected, first_difference(expected, actual)


_CALL_IMPORT_STEPS = ("sdy-add-func-data-flow-edges", "sdy-apply-sharding-constraints", "sdy-import-func-calls")


def _call_import_order(pass_names: list[str]) -> list[str]:
    return [name for name in pass_names if name in _CALL_IMPORT_STEPS]


def _both_orders() -> tuple[list[str], list[str]]:
    expanded = cpp_pass_pipeline("sdy-propagation-pipeline")
    cpp = _call_import_order(_pass_names(expanded[len("builtin.module(") : -1]))
    return cpp, _call_import_order(_pass_names(pipeline_text(PropagationPipelinePass().steps())))


@when("import_calls_after_func_edges")
def test_calls_are_imported_after_function_edges_and_constraints():
    expected = ["sdy-add-func-data-flow-edges", "sdy-apply-sharding-constraints", "sdy-import-func-calls"]
    assert _both_orders() == (expected, expected)


@when("import_calls_after_func_edges", False)
def test_calls_are_imported_right_after_flattening():
    expected = ["sdy-import-func-calls", "sdy-apply-sharding-constraints"]
    assert _both_orders() == (expected, expected)
