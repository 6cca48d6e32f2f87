"""pysdy's passes against jaxlib's C++ on random modules with unreduced axes of each reduction kind (sum, max, min)."""

from __future__ import annotations

import re

import pytest

import located_outcomes
from child_process import ChildProcessCrash
from line_side import when
from reduction_kind_modules import reduction_kind_module

pytestmark = when("unreduced_reduction_kinds")

PIPELINES = (
    "sdy-manual-axes-cleanup",
    "sdy-remove-size-one-axes",
    "sdy-basic-propagate",
    "sdy-aggressive-propagate",
    "sdy-op-priority-propagate",
    "sdy-user-priority-propagate",
    "sdy-propagation-pipeline",
    "func.func(sdy-insert-explicit-reshards{enable-full-version=true})",
    "func.func(sdy-insert-explicit-reshards)",
    "func.func(sdy-reshard-to-collectives)",
    "func.func(sdy-verify-unreduced-axes)",
    "sdy-export-pipeline",
    "sdy-export-pipeline{enable-insert-explicit-collectives=true}",
)
FAST_SEEDS = range(60)
SLOW_SEEDS = range(60, 2000)
_LOCATED_ERROR = re.compile(r'error: loc\("-":\d+:\d+\): ')


def _compared(outcome: str) -> str:
    """The printed module with its locations, or the first error with its location."""
    return outcome.splitlines()[0] if outcome.startswith("error: ") else outcome


def check_seed(seed: int, pipeline: str) -> str:
    """pysdy gives the C++ module or first located error on the module of `seed`, and a located error where the C++
    aborts. Returns what the C++ gave: "module", "error" or "crash"."""
    text = reduction_kind_module(seed)
    actual = located_outcomes.pysdy(text, pipeline)
    try:
        expected = located_outcomes.cpp(text, pipeline)
    except ChildProcessCrash:
        assert _LOCATED_ERROR.match(actual), f"jaxlib's C++ aborts on seed {seed}, pysdy gives:\n{actual}\n{text}"
        return "crash"
    assert _compared(actual) == _compared(expected), f"seed {seed}:\n{text}"
    return "error" if expected.startswith("error: ") else "module"


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_pass_matches_cpp(pipeline):
    outcomes = [check_seed(seed, pipeline) for seed in FAST_SEEDS]
    # The agreement is not only on refusals: the C++ gives a module for a good share of the sample.
    assert outcomes.count("module") >= len(FAST_SEEDS) // 4, outcomes


@pytest.mark.slow
@pytest.mark.parametrize("pipeline", PIPELINES)
def test_pass_matches_cpp_on_more_seeds(pipeline):
    for seed in SLOW_SEEDS:
        check_seed(seed, pipeline)


def test_fast_sample_has_every_feature():
    """Every reduction kind, reduce body and op the generator draws occurs in the fast sample."""
    texts = "\n".join(map(reduction_kind_module, FAST_SEEDS))
    for feature in (
        "unreduced={",
        "unreduced=max{",
        "unreduced=min{",
        "applies stablehlo.add",
        "applies stablehlo.maximum",
        "applies stablehlo.minimum",
        "applies stablehlo.and",
        "applies stablehlo.or",
        "stablehlo.compare GT",
        "stablehlo.dot_general",
        "sdy.sharding_constraint",
        "sdy.reshard",
        "sdy.manual_computation",
        "call @callee_",
        "@twin",
        "@other",
        "=1",
        "func.func @step",
    ):
        assert feature in texts, feature
