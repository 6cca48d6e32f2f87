"""`sdy-optimize-collectives`, C++ and pysdy: on jax lines from 0.11, pysdy's module equals the C++ one (locations
included), on hand-written cases and random permute + all-to-all chains; on jax 0.10, a pass that does not exist."""

from __future__ import annotations

import os
import random

import pytest
from jaxlib.mlir import ir, passmanager

from child_process import in_child_process
from located_outcomes import outcome
from permute_all_to_all_chains import chain_module
from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import PipelineError, build_pass_manager, parse_pipeline, run_pipeline
from pysdy.versions import installed

PASS = "func.func(sdy-optimize-collectives)"

with open(os.path.join(os.path.dirname(__file__), "optimize_collectives_cases.mlir")) as _file:
    CASES = [case.strip() for case in _file.read().split("// -----")]

_HAS_PASS = installed().optimize_collectives
# Random chains per seed, and the seeds.
_CHAINS_PER_SEED = 100
_SEEDS = range(4)


@in_child_process
def _cpp(texts: list[str], pipeline: str) -> list[str]:
    manager = f"builtin.module({pipeline})"
    return [outcome(text, lambda m: passmanager.PassManager.parse(manager).run(m.operation)) for text in texts]


def _pysdy(text: str) -> str:
    return outcome(text, lambda module: run_pipeline(module, parse_pipeline(PASS)))


def _verifies(text: str) -> bool:
    with make_context():
        try:
            ir.Module.parse(text)
        except ir.MLIRError:
            return False
    return True


@pytest.mark.skipif(not _HAS_PASS, reason="jaxlib 0.10 has no sdy-optimize-collectives")
@pytest.mark.parametrize("case", range(len(CASES)))
def test_module_as_cpp(case):
    [expected] = _cpp([CASES[case]], PASS)
    assert _pysdy(CASES[case]) == expected


@pytest.mark.skipif(not _HAS_PASS, reason="jaxlib 0.10 has no sdy-optimize-collectives")
def test_cases_have_rewritten_and_kept_permutes():
    rewritten = sum(after != before for after, before in zip(_cpp(CASES, PASS), _cpp(CASES, "")))
    assert 6 <= rewritten <= len(CASES) - 6


@pytest.mark.skipif(not _HAS_PASS, reason="jaxlib 0.10 has no sdy-optimize-collectives")
@pytest.mark.parametrize("seed", _SEEDS)
def test_random_chains_as_cpp(seed):
    rng = random.Random(seed)
    texts = [chain_module(rng, f"chain{index}") for index in range(_CHAINS_PER_SEED)]
    texts = [text for text in texts if _verifies(text)]
    expected = _cpp(texts, PASS)
    assert [_pysdy(text) for text in texts] == expected
    assert sum("stablehlo.reshape" in module for module in expected) >= len(texts) // 10


@pytest.mark.skipif(_HAS_PASS, reason="jaxlib 0.11 on has sdy-optimize-collectives")
def test_pass_is_unknown_as_on_jaxlib_0_10():
    with make_context():
        with pytest.raises(ValueError, match="'sdy-optimize-collectives' does not refer to a registered pass"):
            passmanager.PassManager.parse(f"builtin.module({PASS})")
        with pytest.raises(PipelineError, match="unknown pass 'sdy-optimize-collectives'"):
            build_pass_manager(parse_pipeline(PASS))
