"""`sdy-verify-unreduced-axes`, C++ and pysdy: on jax lines from 0.11, the same module or the same errors (each
with its location) on hand-written transitions of unreduced axes; on jax 0.10, a pass that does not exist."""

from __future__ import annotations

import os

import pytest
from jaxlib.mlir import ir, passmanager

from child_process import in_child_process
from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import PipelineError, build_pass_manager, parse_pipeline, run_pipeline
from pysdy.versions import installed

PASS = "func.func(sdy-verify-unreduced-axes)"
_CASES_FILE = os.path.join(os.path.dirname(__file__), "verify_unreduced_axes_cases.mlir")

with open(_CASES_FILE) as _file:
    CASES = [case.strip() for case in _file.read().split("// -----")]

_HAS_PASS = installed().verify_unreduced_axes


def _outcome(text: str, run) -> str:
    """The printed module, or every error as `location: message`."""
    with make_context():
        module = ir.Module.parse(text)
        try:
            run(module)
        except ir.MLIRError as error:
            return "\n".join(f"{d.location}: {d.message}" for d in error.error_diagnostics)
        return str(module)


@in_child_process
def _cpp(text: str) -> str:
    return _outcome(text, lambda module: passmanager.PassManager.parse(f"builtin.module({PASS})").run(module.operation))


def _pysdy(text: str) -> str:
    return _outcome(text, lambda module: run_pipeline(module, parse_pipeline(PASS)))


@pytest.mark.skipif(not _HAS_PASS, reason="jaxlib 0.10 has no sdy-verify-unreduced-axes")
@pytest.mark.parametrize("case", range(len(CASES)))
def test_pass_matches_cpp(case):
    assert _pysdy(CASES[case]) == _cpp(CASES[case])


@pytest.mark.skipif(not _HAS_PASS, reason="jaxlib 0.10 has no sdy-verify-unreduced-axes")
def test_cases_exercise_every_error():
    """The C++ rejects most cases, with each of its messages, so the agreement above means something."""
    errors = "\n".join(_cpp(text) for text in CASES)
    for message in (
        "dropped unreduced axis",
        "cannot add new unreduced axis",
        "cannot introduce 'max' unreduced axes. Expected 'sum'.",
        "cannot change the reduction operator of kept unreduced axes",
        "results introduce unreduced axes with conflicting reduction ops",
        "cannot reduce 'sum' unreduced axes. Expected 'max'.",
        "at call argument 0.",
        "at return value 0 without a blessed operation",
    ):
        assert message in errors
    assert sum(not _cpp(text).startswith("module") for text in CASES) >= 30


@pytest.mark.skipif(_HAS_PASS, reason="jaxlib 0.11 on has sdy-verify-unreduced-axes")
def test_pass_is_unknown_as_on_jaxlib_0_10():
    with make_context():
        with pytest.raises(ValueError, match="'sdy-verify-unreduced-axes' does not refer to a registered pass"):
            passmanager.PassManager.parse(f"builtin.module({PASS})")
        with pytest.raises(PipelineError, match="unknown pass 'sdy-verify-unreduced-axes'"):
            build_pass_manager(parse_pipeline(PASS))
