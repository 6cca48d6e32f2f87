"""`sdy-resolve-single-device-sharding`, C++ and pysdy: on jax lines from 0.11, the same module (with locations)
on hand-written cases and on the JAX corpus after jaxlib's propagation and export; where the C++ aborts or makes
IR that does not verify, pysdy refuses with an error at the op; on jax 0.10, a pass that does not exist."""

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

PASS = "func.func(sdy-resolve-single-device-sharding)"
REFUSAL = "sdy-resolve-single-device-sharding: '"
# How the JAX corpus reaches the pass: jaxlib's propagation, its export with explicit collectives, and (as the export
# inlines meshes from jax 0.11, and the pass needs a mesh symbol) its lifting of the meshes back to symbols.
_PROPAGATE_AND_EXPORT = (
    "sdy-propagation-pipeline,sdy-export-pipeline{enable-insert-explicit-collectives=true},sdy-lift-inlined-meshes"
)

with open(os.path.join(os.path.dirname(__file__), "resolve_single_device_sharding_cases.mlir")) as _file:
    CASES = [case.strip() for case in _file.read().split("// -----")]

_HAS_PASS = installed().resolve_single_device_sharding
_needs_pass = pytest.mark.skipif(not _HAS_PASS, reason="jaxlib 0.10 has no sdy-resolve-single-device-sharding")


def _cpp_or_crash(text: str, pipeline: str = PASS) -> str | None:
    """The C++ outcome, None where the C++ aborts."""
    try:
        return located_outcomes.cpp(text, pipeline)
    except ChildProcessCrash:
        return None


def _assert_as_cpp(text: str, pipeline: str = PASS) -> None:
    """pysdy prints the C++ module; where the C++ aborts or fails, pysdy refuses at an op instead."""
    expected, actual = _cpp_or_crash(text, pipeline), located_outcomes.pysdy(text, pipeline)
    if expected is None or expected.startswith("error: "):
        assert actual.startswith("error: loc(") and REFUSAL in actual, actual
    else:
        assert actual == expected


@_needs_pass
@pytest.mark.parametrize("case", range(len(CASES)))
def test_pass_matches_cpp(case):
    _assert_as_cpp(CASES[case])


@_needs_pass
def test_cases_have_rewrites_refusals_and_kept_modules():
    """Most cases are rewritten, some kept and some fail in the C++, so the agreement above means something."""
    outcomes = [_cpp_or_crash(text) for text in CASES]
    rewritten = sum(o is not None and "stablehlo.if" in o for o in outcomes)
    failed = sum(o is None or o.startswith("error: ") for o in outcomes)
    assert rewritten >= 15 and failed >= 4 and rewritten + failed <= len(CASES) - 4


_OPTIONS_CASE = CASES[0]


@_needs_pass
@pytest.mark.parametrize(
    "options",
    ["replica-count=2", "partition-count=8", "replica-count=-1", "replica-count=2 partition-count=2",
     "replica-count=0 partition-count=4"],
)
def test_device_id_options_match_cpp(options):
    _assert_as_cpp(_OPTIONS_CASE, f"func.func(sdy-resolve-single-device-sharding{{{options}}})")


@_needs_pass
def test_replica_count_compares_the_replica_id():
    output = located_outcomes.pysdy(_OPTIONS_CASE, "func.func(sdy-resolve-single-device-sharding{replica-count=2})")
    assert "stablehlo.replica_id" in output and "stablehlo.partition_id" not in output


@_needs_pass
def test_device_guard_type_is_the_lines():
    """jax 0.11 compares the device id as i64; jax 0.12 compares the ui32 id itself."""
    expected = located_outcomes.cpp(_OPTIONS_CASE, PASS)
    if installed().single_device_guard_compares_ui32:
        assert "stablehlo.constant dense<3> : tensor<ui32>" in expected and "stablehlo.convert" not in expected
    else:
        assert "stablehlo.convert %0 : (tensor<ui32>) -> tensor<i64>" in expected
        assert "stablehlo.constant dense<3> : tensor<i64>" in expected
    assert located_outcomes.pysdy(_OPTIONS_CASE, PASS) == expected


_COMPLEX_CASE = next(text for text in CASES if "@complex_result" in text)


@when("single_device_zeros_complex")
def test_complex_results_get_complex_zeros():
    """From jax 0.12 the other devices return complex zeros for a complex result."""
    actual = located_outcomes.pysdy(_COMPLEX_CASE, PASS)
    assert "dense<(0.000000e+00,0.000000e+00)> : tensor<2xcomplex<f32>>" in actual
    assert actual == located_outcomes.cpp(_COMPLEX_CASE, PASS)


@_needs_pass
@when("single_device_zeros_complex", False)
def test_complex_results_refused_where_cpp_crashes():
    """jax 0.11's C++ crashes making a complex result's zeros; pysdy refuses at the op."""
    with pytest.raises(ChildProcessCrash):
        located_outcomes.cpp(_COMPLEX_CASE, PASS)
    actual = located_outcomes.pysdy(_COMPLEX_CASE, PASS)
    assert actual.startswith("error: loc(") and "has a complex result (tensor<2xcomplex<f32>>)" in actual, actual


@functools.cache
def _cpp_exported(program: str) -> str:
    """The corpus program after jaxlib's propagation and export, as text."""
    return located_outcomes.cpp(corpus()[program], _PROPAGATE_AND_EXPORT)


_CALLBACK_PROGRAMS = [name for name in program_names() if "callback" in name]


@_needs_pass
@pytest.mark.parametrize("program", program_names())
def test_pass_matches_cpp_on_exported_jax_programs(program):
    exported = _cpp_exported(program)
    if exported.startswith("error: "):
        pytest.skip(f"jaxlib's export fails on it: {exported}")
    _assert_as_cpp(exported)


@_needs_pass
@pytest.mark.parametrize("program", _CALLBACK_PROGRAMS)
def test_host_callbacks_are_resolved(program):
    """JAX puts host callbacks on a maximal mesh: after export, the pass puts each in a `stablehlo.if`."""
    assert "stablehlo.if" in located_outcomes.cpp(_cpp_exported(program), PASS)


@when("resolve_single_device_sharding", False)
def test_pass_is_unknown_as_on_jaxlib_0_10():
    with make_context():
        with pytest.raises(ValueError, match="'sdy-resolve-single-device-sharding' does not refer to a registered pass"):
            passmanager.PassManager.parse(f"builtin.module({PASS})")
        with pytest.raises(PipelineError, match="unknown pass 'sdy-resolve-single-device-sharding'"):
            build_pass_manager(parse_pipeline(PASS))
