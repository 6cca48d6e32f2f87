"""`sdy-explicit-gather-scatter-batching` gives exactly jaxlib's C++ output, locations included."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from gather_scatter_modules import functions
from import_oracle import corpus_programs, run_cpp, run_py
from jax_corpus import program_names

PASS = "func.func(sdy-explicit-gather-scatter-batching)"
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


def _settings(max_examples: int, phases: tuple[Phase, ...]) -> settings:
    return settings(
        max_examples=max_examples,
        phases=phases,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


@_settings(150, (Phase.explicit, Phase.generate))
@given(functions())
def test_pass_matches_cpp_on_random_gathers_and_scatters(text):
    _assert_pass_matches_cpp(text)


@pytest.mark.slow
@_settings(3000, tuple(Phase))
@given(functions())
def test_pass_matches_cpp_on_many_random_gathers_and_scatters(text):
    _assert_pass_matches_cpp(text)


@pytest.mark.parametrize("name", program_names())
def test_pass_matches_cpp_on_jax_programs(name):
    expected = _assert_pass_matches_cpp(corpus_programs()[name])
    if name in REWRITTEN_PROGRAMS:
        assert "operand_batching_dims = [0]" in expected or "input_batching_dims = [0]" in expected
