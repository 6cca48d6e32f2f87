"""pysdy's propagation pipeline and passes give exactly jaxlib's C++ output on hypothesis-generated modules.

The pipeline runs on the raw random modules; each propagation pass runs on them
after jaxlib's C++ `sdy-import-pipeline` (used only to make the input). Modules
with host callbacks (maximal meshes) also go through the export pipeline; from jax 0.11 the pipelines refuse the
ones with a function argument or result on a maximal mesh, and both sides must refuse them alike. A test
is skipped only while pysdy does not register the pass it checks. Hypothesis
reports the failing module (the raw one, before import) as "Falsifying example".
"""

import pytest
from hypothesis import Phase, given
from hypothesis_settings import module_settings
from jaxlib.mlir import ir

from oracle import cpp_output
from propagation_oracle import first_difference, pysdy_output
from pysdy import versions
from pysdy.passes.registry import lookup_pass
from random_modules import modules, random_module

PIPELINE = "sdy-propagation-pipeline"
PASSES = [
    "sdy-basic-propagate",
    "sdy-aggressive-propagate",
    "sdy-op-priority-propagate",
    "sdy-user-priority-propagate",
]


# The quick run reports the failing module as drawn; the slow run also shrinks it to a minimal one.
FEW = module_settings(50, (Phase.explicit, Phase.generate))
MANY = module_settings(1000, tuple(Phase))


def _requires(pass_: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(lookup_pass(pass_) is None, reason=f"pysdy does not register {pass_} yet")


def _passes() -> list:
    return [pytest.param(pass_, marks=_requires(pass_)) for pass_ in PASSES]


def _assert_same(text: str, pipeline: str) -> None:
    expected = cpp_output(text, pipeline)
    actual = pysdy_output(text, pipeline)
    assert actual == expected, f"{pipeline}: {first_difference(expected, actual)}"


def _outcome(run, text: str, pipeline: str) -> str:
    """The printed module, or every error with its location when the pipeline fails."""
    try:
        return run(text, pipeline)
    except ir.MLIRError as error:
        return "\n".join(f"error: {d.location}: {d.message}" for d in error.error_diagnostics)


def _assert_same_outcome(text: str, pipeline: str) -> None:
    """The same printed module, or the same errors where both refuse the module."""
    expected = _outcome(cpp_output, text, pipeline)
    actual = _outcome(pysdy_output, text, pipeline)
    assert actual == expected, f"{pipeline}: {first_difference(expected, actual)}"


def _check_pass(text: str, pass_: str) -> None:
    _assert_same(cpp_output(text, "sdy-import-pipeline"), pass_)


@_requires(PIPELINE)
@FEW
@given(text=modules())
def test_pipeline_matches_cpp(text):
    _assert_same(text, PIPELINE)


@pytest.mark.parametrize("pass_", _passes())
@FEW
@given(text=modules())
def test_pass_matches_cpp_after_import(pass_, text):
    _check_pass(text, pass_)


@pytest.mark.slow
@_requires(PIPELINE)
@MANY
@given(text=modules())
def test_pipeline_matches_cpp_many(text):
    _assert_same(text, PIPELINE)


@pytest.mark.slow
@pytest.mark.parametrize("pass_", _passes())
@MANY
@given(text=modules())
def test_pass_matches_cpp_after_import_many(pass_, text):
    _check_pass(text, pass_)


# Maximal meshes beside the named one (JAX's host callbacks), through propagation and the export pipeline.
HOST_CALLBACK_PIPELINES = [PIPELINE, f"{PIPELINE},sdy-export-pipeline"]


@pytest.mark.parametrize("pipeline", HOST_CALLBACK_PIPELINES)
@FEW
@given(text=modules(host_callbacks=True))
def test_host_callback_modules_match_cpp(pipeline, text):
    _assert_same_outcome(text, pipeline)


@pytest.mark.parametrize("pass_", _passes())
@FEW
@given(text=modules(host_callbacks=True))
def test_pass_matches_cpp_on_host_callback_modules(pass_, text):
    _check_pass(text, pass_)


@pytest.mark.slow
@pytest.mark.parametrize("pipeline", HOST_CALLBACK_PIPELINES)
@MANY
@given(text=modules(host_callbacks=True))
def test_host_callback_modules_match_cpp_many(pipeline, text):
    _assert_same_outcome(text, pipeline)


def test_host_callback_modules_refused_as_cpp():
    """From jax 0.11, both sides refuse the seeded host-callback modules with a function argument or result on a
    maximal mesh, with the same errors; before, neither refuses any."""
    refused = 0
    for seed in range(20):
        text = random_module(seed, host_callbacks=True)
        expected = _outcome(cpp_output, text, PIPELINE)
        actual = _outcome(pysdy_output, text, PIPELINE)
        if expected.startswith("error") or actual.startswith("error"):
            assert actual == expected, f"seed {seed}: {first_difference(expected, actual)}"
            assert "cannot have a single-device" in actual
            refused += 1
    assert (refused > 0) == versions.installed().explicit_reshards_refuse_maximal_func_shardings
