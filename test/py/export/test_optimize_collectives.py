"""`sdy-optimize-collectives`, C++ and pysdy: on jax lines from 0.11, pysdy leaves a module as the C++ does, and
where the C++ rewrites a collective permute before all-to-alls (which pysdy does not implement) pysdy refuses
with an error at that permute instead of a different module; on jax 0.10, a pass that does not exist."""

from __future__ import annotations

import os

import pytest
from jaxlib.mlir import ir, passmanager

from child_process import in_child_process
from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import PipelineError, build_pass_manager, parse_pipeline, run_pipeline
from pysdy.versions import installed

PASS = "func.func(sdy-optimize-collectives)"
REFUSAL = "sdy-optimize-collectives: pysdy does not implement the rewrite of a collective permute followed by all-to-alls"

with open(os.path.join(os.path.dirname(__file__), "optimize_collectives_cases.mlir")) as _file:
    CASES = [case.strip() for case in _file.read().split("// -----")]

_HAS_PASS = installed().optimize_collectives


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
def _cpp(text: str, pipeline: str) -> str:
    return _outcome(text, lambda m: passmanager.PassManager.parse(f"builtin.module({pipeline})").run(m.operation))


def _pysdy(text: str) -> str:
    return _outcome(text, lambda module: run_pipeline(module, parse_pipeline(PASS)))


@pytest.mark.skipif(not _HAS_PASS, reason="jaxlib 0.10 has no sdy-optimize-collectives")
@pytest.mark.parametrize("case", range(len(CASES)))
def test_module_kept_as_cpp_or_rewrite_refused(case):
    expected, actual = _cpp(CASES[case], PASS), _pysdy(CASES[case])
    if expected != _cpp(CASES[case], ""):
        assert actual.endswith(REFUSAL) and "sdy.collective_permute" not in expected
    else:
        assert actual == expected


@pytest.mark.skipif(not _HAS_PASS, reason="jaxlib 0.10 has no sdy-optimize-collectives")
def test_cases_have_rewritten_and_kept_permutes():
    rewritten = [text for text in CASES if _cpp(text, PASS) != _cpp(text, "")]
    assert 1 <= len(rewritten) < len(CASES) - 2


@pytest.mark.skipif(_HAS_PASS, reason="jaxlib 0.11 on has sdy-optimize-collectives")
def test_pass_is_unknown_as_on_jaxlib_0_10():
    with make_context():
        with pytest.raises(ValueError, match="'sdy-optimize-collectives' does not refer to a registered pass"):
            passmanager.PassManager.parse(f"builtin.module({PASS})")
        with pytest.raises(PipelineError, match="unknown pass 'sdy-optimize-collectives'"):
            build_pass_manager(parse_pipeline(PASS))
