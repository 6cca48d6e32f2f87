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
_KIND = re.compile(r"unreduced=(max|min|sum)?\{")
# Erases unused effect-free ops and nothing else: no pattern is enabled.
_ERASE_DEAD_OPS = "func.func(canonicalize{enable-patterns=none region-simplify=disabled})"

# What the C++ of jax 0.11 and 0.12 gets wrong, where pysdy's output differs on purpose; Shardy fixed the first
# three after 0.12 (openxla/shardy be7f7505, "Preserve custom reduction operations for unreduced axes").
KIND_DROPPED = "the C++ writes a sum where pysdy keeps a max or min kind"
KIND_DROP_REJECTED = "the C++ rejects a collective or reshard it built with a dropped kind (before any other error)"
DEAD_PRIORITY_OP_CRASH = "the C++ crashes on unused ops with priorities; pysdy equals it on the module without them"
KIND_CHANGE_REFUSED = "pysdy refuses to change a kind where the C++ goes on; with every kind a sum, the two agree"
_KIND_CHANGE = re.compile(
    r"cannot change reduction_op of existing unreduced axes|cannot change the reduction operator of kept unreduced axes"
)


def _compared(outcome: str) -> str:
    """The printed module with its locations, or the first error with its location."""
    return outcome.splitlines()[0] if outcome.startswith("error: ") else outcome


def _cpp_defect(actual: str, expected: str) -> str | None:
    """Which known defect of the C++ explains pysdy's `actual` differing from the C++'s `expected`, if one does."""
    if expected.startswith("error: "):
        dropped = "cannot change reduction_op of existing unreduced axes" in expected or re.search(
            r"cannot change the reduction operator of kept unreduced axes from (max|min) to sum", expected
        )
        # (pysdy may refuse too, on invalid IR it builds elsewhere, which the C++ never reaches.)
        return KIND_DROP_REJECTED if dropped else None
    if _KIND.sub("unreduced={", actual) != _KIND.sub("unreduced={", expected):
        return None
    # The same modules but for kinds: every kind the C++ writes that pysdy's differs from is a dropped one (sum).
    pairs = list(zip(_KIND.findall(actual), _KIND.findall(expected)))
    if all(ours == theirs or theirs in ("", "sum") for ours, theirs in pairs):
        return KIND_DROPPED
    return None


def check_seed(seed: int, pipeline: str) -> str:
    """pysdy gives the C++ module or first located error on the module of `seed`, a located error where the C++
    aborts, or differs where a known defect of the C++ explains it. Returns what the C++ gave ("module", "error"
    or "crash") or the defect."""
    text = reduction_kind_module(seed)
    actual = located_outcomes.pysdy(text, pipeline)
    try:
        expected = located_outcomes.cpp(text, pipeline)
    except ChildProcessCrash:
        if _LOCATED_ERROR.match(actual):
            return "crash"
        if "priority" in pipeline or "propagation-pipeline" in pipeline:
            # (The canonicalizer erasing them also moves constants first, so pysdy runs on its output too.)
            without_dead_ops = located_outcomes.cpp(text, _ERASE_DEAD_OPS)
            expected = _compared(located_outcomes.cpp(without_dead_ops, pipeline))
            assert _compared(located_outcomes.pysdy(without_dead_ops, pipeline)) == expected, f"seed {seed}"
            return DEAD_PRIORITY_OP_CRASH
        raise AssertionError(f"jaxlib's C++ aborts on seed {seed}, pysdy gives:\n{actual}\n{text}")
    if _compared(actual) == _compared(expected):
        return "error" if expected.startswith("error: ") else "module"
    defect = _cpp_defect(_compared(actual), _compared(expected))
    if defect is None and _LOCATED_ERROR.match(actual) and _KIND_CHANGE.search(_compared(actual)):
        all_sums = _KIND.sub("unreduced={", text)
        expected = _compared(located_outcomes.cpp(all_sums, pipeline))
        assert _compared(located_outcomes.pysdy(all_sums, pipeline)) == expected, f"seed {seed} with all sums"
        defect = KIND_CHANGE_REFUSED
    assert defect is not None, f"seed {seed}:\n{text}"
    return defect


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_pass_matches_cpp(pipeline):
    outcomes = [check_seed(seed, pipeline) for seed in FAST_SEEDS]
    # The agreement is not only on refusals: pysdy equals the C++ module on a good share of the sample.
    assert outcomes.count("module") >= len(FAST_SEEDS) // 4, outcomes


# Seeds past the fast sample where pysdy once differed from the C++ of 0.11 or 0.12, each with its pipeline.
_COLLECTIVES = "sdy-export-pipeline{enable-insert-explicit-collectives=true}"
REGRESSION_SEEDS = (
    (73, _COLLECTIVES),  # the export pipeline verifies after reshard-to-collectives
    (179, _COLLECTIVES),  # ... and as one group with the function passes next to it
    (380, "sdy-user-priority-propagate"),  # priorities go from the results of functions other than main
    (343, "sdy-user-priority-propagate"),
    (1192, "func.func(sdy-insert-explicit-reshards)"),  # a kind change refused
    (425, "func.func(sdy-insert-explicit-reshards{enable-full-version=true})"),
    (419, "sdy-propagation-pipeline"),  # a constraint overrides a sharding that constrains nothing
    (660, "sdy-propagation-pipeline"),
    (135, "sdy-propagation-pipeline"),  # on 0.11: verified after the reshards of calls, as jaxlib's C++ is
)


@pytest.mark.parametrize("seed,pipeline", REGRESSION_SEEDS)
def test_pass_matches_cpp_on_seeds_that_once_differed(seed, pipeline):
    check_seed(seed, pipeline)


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
