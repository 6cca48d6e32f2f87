"""`sdy-insert-explicit-reshards{mark-partial-result-with-unreduced-axes=true}` (jax lines from 0.11): C++ and
pysdy print the same module on the JAX corpus and the hand-written cases, with and without the full version."""

from __future__ import annotations

import pytest
from explicit_reshard_cases import ALL as CASES
from export_inputs import assert_same_output, corpus_before
from jax_corpus import program_names
from line_side import when
from oracle import cpp_output


MARKING = {
    full: f"func.func(sdy-insert-explicit-reshards{{enable-full-version={full} mark-partial-result-with-unreduced-axes=true}})"
    for full in ("false", "true")
}

pytestmark = when("reshards_mark_partial_results_unreduced")


def _inputs() -> dict[str, str]:
    return corpus_before("default", "sdy-insert-explicit-reshards")


@pytest.mark.parametrize("full", list(MARKING))
@pytest.mark.parametrize("program", program_names())
def test_pass_matches_cpp_on_jax_corpus(program, full):
    inputs = _inputs()
    if program not in inputs:
        pytest.skip("jaxlib's C++ pipeline fails on this program")
    assert_same_output(inputs[program], MARKING[full])


@pytest.mark.parametrize("full", list(MARKING))
@pytest.mark.parametrize("case", list(CASES))
def test_pass_matches_cpp_on_edge_case(case, full):
    assert_same_output(CASES[case], MARKING[full])


def test_corpus_has_partial_results_to_mark():
    """The option changes what the C++ prints for several corpus programs, so the agreement above means something."""
    unmarked = "func.func(sdy-insert-explicit-reshards{enable-full-version=true})"
    changed = [name for name, text in _inputs().items() if cpp_output(text, MARKING["true"]) != cpp_output(text, unmarked)]
    assert len(changed) >= 5, changed
