"""`sdy-per-instruction-partitioning`, C++ and pysdy: on jax lines from 0.11, pysdy leaves a module as it is where
the C++ does (no op it would partition, under every `filter`), and refuses with an error at the op where the C++
partitions one (which pysdy does not implement) or fails; on jax 0.10, a pass that does not exist."""

from __future__ import annotations

import functools
import os

import pytest
from jaxlib.mlir import passmanager

import located_outcomes
from child_process import ChildProcessCrash
from jax_corpus import corpus, program_names
from line_side import when
from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import PipelineError, build_pass_manager, parse_pipeline
from pysdy.versions import installed

PASS = "sdy-per-instruction-partitioning"
REFUSAL = "sdy-per-instruction-partitioning: pysdy does not implement partitioning '"
_PROPAGATE_AND_EXPORT = "sdy-propagation-pipeline,sdy-export-pipeline{enable-insert-explicit-collectives=true}"

with open(os.path.join(os.path.dirname(__file__), "per_instruction_partitioning_cases.mlir")) as _file:
    CASES = [case.strip() for case in _file.read().split("// -----")]

_HAS_PASS = installed().per_instruction_partitioning
_needs_pass = pytest.mark.skipif(not _HAS_PASS, reason="jaxlib 0.10 has no sdy-per-instruction-partitioning")


def _cpp_keeps(text: str, pipeline: str) -> bool:
    """Whether the C++ pass leaves the module as it is (False where it changes it, fails or aborts; jax 0.12's pass
    also throws std::bad_alloc, a MemoryError here, on some programs with control flow)."""
    try:
        return located_outcomes.cpp(text, pipeline) == located_outcomes.cpp(text, "")
    except (ChildProcessCrash, MemoryError):
        return False


def _assert_as_cpp(text: str, pipeline: str) -> None:
    actual = located_outcomes.pysdy(text, pipeline)
    if _cpp_keeps(text, pipeline):
        assert actual == located_outcomes.cpp(text, "")
    else:
        assert actual.startswith("error: loc(") and REFUSAL in actual, actual


@_needs_pass
@pytest.mark.parametrize("case", range(len(CASES)))
def test_kept_as_cpp_or_refused(case):
    _assert_as_cpp(CASES[case], PASS)


@_needs_pass
def test_cases_have_kept_and_partitioned_modules():
    kept = sum(_cpp_keeps(text, PASS) for text in CASES)
    assert 8 <= kept <= len(CASES) - 8


_FILTER_CASES = [text for text in CASES if "@first" in text or "@helper" in text or "private @callee" in text]
_FILTERS = [
    "negate", "multiply", "add", "sub", "ab", "selectLow=4", "selectHigh=0", "'selectLow=1,add'",
    '"selectLow=2,selectHigh=2"', "selectLow=x", "selectLow=-3", "'selectLow=4,'", "' '", "selectLow=+3",
    "selectLow=3,mul", "'selectHigh=1,selectLow=1,neg'",
]


@_needs_pass
@pytest.mark.parametrize("filter_", _FILTERS)
@pytest.mark.parametrize("case", range(len(_FILTER_CASES)))
def test_filter_selects_as_cpp(case, filter_):
    _assert_as_cpp(_FILTER_CASES[case], f"{PASS}{{filter={filter_}}}")


_CALLEE_CASE = next(case for case in CASES if "private @callee" in case)
_CALLEE_FILTER = f"{PASS}{{filter=multiply}}"


@when("per_instruction_main_function_only")
def test_only_main_function_from_jax_0_12():
    """jax 0.12 partitions only `@main` (else the first public function): a filter naming an op of another function
    selects nothing there."""
    assert _cpp_keeps(_CALLEE_CASE, _CALLEE_FILTER)
    _assert_as_cpp(_CALLEE_CASE, _CALLEE_FILTER)


@_needs_pass
@when("per_instruction_main_function_only", False)
def test_every_function_before_jax_0_12():
    """jax 0.11 partitions the ops of every function: the filter selects the callee's multiply, which pysdy refuses."""
    assert not _cpp_keeps(_CALLEE_CASE, _CALLEE_FILTER)
    _assert_as_cpp(_CALLEE_CASE, _CALLEE_FILTER)


@functools.cache
def _cpp_exported(program: str) -> str:
    return located_outcomes.cpp(corpus()[program], _PROPAGATE_AND_EXPORT)


@_needs_pass
@pytest.mark.parametrize("program", program_names())
def test_kept_as_cpp_or_refused_on_exported_jax_programs(program):
    exported = _cpp_exported(program)
    if exported.startswith("error: "):
        pytest.skip(f"jaxlib's export fails on it: {exported}")
    _assert_as_cpp(exported, PASS)


@when("per_instruction_partitioning", False)
def test_pass_is_unknown_as_on_jaxlib_0_10():
    with make_context():
        with pytest.raises(ValueError, match="'sdy-per-instruction-partitioning' does not refer to a registered pass"):
            passmanager.PassManager.parse(f"builtin.module({PASS})")
        with pytest.raises(PipelineError, match="unknown pass 'sdy-per-instruction-partitioning'"):
            build_pass_manager(parse_pipeline(PASS))


_RNG_OPTION = f"{PASS}{{rng-bit-generator-unsafe=false}}"


@when("per_instruction_rng_option")
@pytest.mark.parametrize("case", range(len(CASES)))
def test_rng_option_kept_as_cpp_or_refused(case):
    """From jax 0.12 the pass takes `rng-bit-generator-unsafe`, in the C++ and in pysdy."""
    _assert_as_cpp(CASES[case], _RNG_OPTION)


@_needs_pass
@when("per_instruction_rng_option", False)
def test_rng_option_is_unknown_before_jax_0_12():
    with make_context():
        with pytest.raises(ValueError, match="no such option rng-bit-generator-unsafe"):
            passmanager.PassManager.parse(f"builtin.module({_RNG_OPTION})")
        with pytest.raises(PipelineError, match="no such option 'rng-bit-generator-unsafe'"):
            build_pass_manager(parse_pipeline(_RNG_OPTION))
