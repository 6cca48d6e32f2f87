"""`sdy-explicit-gather-scatter-batching` and the pipelines' `enable-explicit-gather-scatter-batching`
option give exactly jaxlib's C++ output, locations included.

jaxlib has the pass but no text option for it: its pipelines add it when the C++ field
`PropagationOptions::enableExplicitGatherScatterBatching` is set, right after
`sdy-constant-or-scalar-splitter`. The oracle for the option is therefore jaxlib's printed pipeline
with `func.func(sdy-explicit-gather-scatter-batching)` put there by hand.
"""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import Phase, given
from hypothesis_settings import module_settings

from gather_scatter_modules import functions
from import_oracle import corpus_programs, cpp_steps, run_cpp, run_py
from jax_corpus import program_names
from pysdy.passes.pipeline import pipeline_text
from pysdy.passes.propagation.propagation_pipeline import PropagationPipelinePass

PASS = "func.func(sdy-explicit-gather-scatter-batching)"
OPTION = "enable-explicit-gather-scatter-batching=true"
SPLITTER = "sdy-constant-or-scalar-splitter"
CASES = os.path.join(os.path.dirname(__file__), "cases", "gather_scatter_batching.mlir")
# Corpus programs where the C++ pass rewrites gathers or scatters.
REWRITTEN_PROGRAMS = ("row_wise_gather_with_arange", "row_wise_scatter_with_arange")


def _cases() -> list[str]:
    with open(CASES) as f:
        return f.read().split("// -----")


def _assert_pass_matches_cpp(text: str) -> str:
    expected = run_cpp(text, PASS, debug_info=True)
    assert run_py(text, PASS, debug_info=True) == expected
    return expected


@pytest.mark.parametrize("index", range(len(_cases())))
def test_pass_matches_cpp_on_hand_written_cases(index):
    _assert_pass_matches_cpp(_cases()[index])


@module_settings(150, (Phase.explicit, Phase.generate))
@given(functions())
def test_pass_matches_cpp_on_random_gathers_and_scatters(text):
    _assert_pass_matches_cpp(text)


@pytest.mark.slow
@module_settings(3000, tuple(Phase))
@given(functions())
def test_pass_matches_cpp_on_many_random_gathers_and_scatters(text):
    _assert_pass_matches_cpp(text)


@pytest.mark.parametrize("name", program_names())
def test_pass_matches_cpp_on_jax_programs(name):
    expected = _assert_pass_matches_cpp(corpus_programs()[name])
    if name in REWRITTEN_PROGRAMS:
        assert "operand_batching_dims = [0]" in expected or "input_batching_dims = [0]" in expected


# ----- the pipeline option -----


def _with_pass(steps: tuple[str, ...]) -> str:
    """jaxlib's steps with the pass nested on functions right after the constant splitter."""
    assert steps.count(SPLITTER) == 1
    index = steps.index(SPLITTER) + 1
    return ",".join(steps[:index] + (PASS,) + steps[index:])


def _without_options(pipeline: str) -> str:
    """The pipeline's passes and nesting (jaxlib prints every option, pysdy's steps those they set)."""
    return re.sub(r"\{(?:[^{}]|\{[^{}]*\})*\}", "", pipeline)


@pytest.mark.parametrize("dedup", [False, True])
def test_propagation_steps_insert_the_pass_after_the_splitter(dedup):
    expected = cpp_steps("sdy-propagation-pipeline{dedup-functions-fully=true}" if dedup else "sdy-propagation-pipeline")
    steps = PropagationPipelinePass(dedup_functions_fully=dedup, enable_explicit_gather_scatter_batching=True).steps()
    assert _without_options(pipeline_text(steps)) == _without_options(_with_pass(expected))


def _pipelines() -> list:
    return [
        pytest.param("sdy-import-pipeline", f"sdy-import-pipeline{{{OPTION}}}", id="import"),
        pytest.param("sdy-propagation-pipeline", f"sdy-propagation-pipeline{{{OPTION}}}", id="propagation"),
        pytest.param(
            "sdy-propagation-pipeline{dedup-functions-fully=true}",
            f"sdy-propagation-pipeline{{dedup-functions-fully=true {OPTION}}}",
            id="propagation-dedup",
        ),
    ]


def _assert_pipeline_matches_cpp(text: str, cpp_pipeline: str, pysdy_pipeline: str) -> None:
    expected = run_cpp(text, _with_pass(cpp_steps(cpp_pipeline)))
    assert run_py(text, pysdy_pipeline) == expected


@pytest.mark.parametrize("cpp_pipeline,pysdy_pipeline", _pipelines())
@pytest.mark.parametrize("index", range(len(_cases())))
def test_option_matches_hand_built_cpp_pipeline_on_cases(cpp_pipeline, pysdy_pipeline, index):
    _assert_pipeline_matches_cpp(_cases()[index], cpp_pipeline, pysdy_pipeline)


@pytest.mark.parametrize("cpp_pipeline,pysdy_pipeline", _pipelines())
@pytest.mark.parametrize("name", REWRITTEN_PROGRAMS)
def test_option_matches_hand_built_cpp_pipeline_on_rewritten_jax_programs(cpp_pipeline, pysdy_pipeline, name):
    _assert_pipeline_matches_cpp(corpus_programs()[name], cpp_pipeline, pysdy_pipeline)


@pytest.mark.slow
@pytest.mark.parametrize("cpp_pipeline,pysdy_pipeline", _pipelines())
@pytest.mark.parametrize("name", program_names())
def test_option_matches_hand_built_cpp_pipeline_on_jax_programs(cpp_pipeline, pysdy_pipeline, name):
    _assert_pipeline_matches_cpp(corpus_programs()[name], cpp_pipeline, pysdy_pipeline)
