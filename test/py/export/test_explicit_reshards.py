"""pysdy's `sdy-sharding-constraint-to-reshard` and `sdy-insert-explicit-reshards` against jaxlib's C++ passes: same printed module on the JAX corpus (as the propagation pipeline hands it to each pass) and on hand-written cases, with both values of `enable-full-version`."""

from __future__ import annotations

import pytest
from explicit_reshard_cases import ALL as CASES
from explicit_reshard_cases import MIXED_REDUCE, SINGLE_DEVICE_CONFLICT
from export_inputs import assert_same_output, corpus_before, print_after_pysdy
from jax_corpus import program_names
from jaxlib.mlir import ir
from oracle import cpp_output

from pysdy.versions import installed

CONSTRAINT_TO_RESHARD = "func.func(sdy-sharding-constraint-to-reshard)"
INSERT_RESHARDS = "func.func(sdy-insert-explicit-reshards{enable-full-version=false})"
INSERT_RESHARDS_FULL = "func.func(sdy-insert-explicit-reshards{enable-full-version=true})"

# (the pass as a pipeline, the step of the propagation pipeline whose input it takes).
PASSES = {
    "constraint-to-reshard": (CONSTRAINT_TO_RESHARD, "sdy-sharding-constraint-to-reshard"),
    "insert-reshards": (INSERT_RESHARDS, "sdy-insert-explicit-reshards"),
    "insert-reshards-full": (INSERT_RESHARDS_FULL, "sdy-insert-explicit-reshards"),
    # The whole export pipeline now runs in pysdy with its default options.
    "export-pipeline": ("sdy-export-pipeline", "sdy-constant-or-scalar-merger"),
    "export-pipeline-collectives": (
        "sdy-export-pipeline{enable-insert-explicit-collectives=true}",
        "sdy-constant-or-scalar-merger",
    ),
    "export-pipeline-collectives-cmv1": (
        "sdy-export-pipeline{enable-insert-explicit-collectives=true remove-all-gather-reduce-scatter-for-cmv1=true}",
        "sdy-constant-or-scalar-merger",
    ),
}


def _corpus_params(variants: tuple[str, ...]):
    return [
        pytest.param(key, variant, program, id=f"{key}-{variant}-{program}")
        for key in PASSES
        for variant in variants
        for program in program_names()
    ]


def _check_corpus(key: str, variant: str, program: str) -> None:
    pipeline, before = PASSES[key]
    inputs = corpus_before(variant, before)
    if program not in inputs:
        pytest.skip("jaxlib's C++ pipeline fails on this program in this mode")
    assert_same_output(inputs[program], pipeline)


@pytest.mark.parametrize("key, variant, program", _corpus_params(("default",)))
def test_pass_matches_cpp_on_jax_corpus(key, variant, program):
    _check_corpus(key, variant, program)


@pytest.mark.slow
@pytest.mark.parametrize("key, variant, program", _corpus_params(("dedup", "debug")))
def test_pass_matches_cpp_on_jax_corpus_other_pipeline_modes(key, variant, program):
    _check_corpus(key, variant, program)


@pytest.mark.parametrize("pipeline", [CONSTRAINT_TO_RESHARD, INSERT_RESHARDS, INSERT_RESHARDS_FULL])
@pytest.mark.parametrize("case", list(CASES))
def test_pass_matches_cpp_on_edge_case(case, pipeline):
    assert_same_output(CASES[case], pipeline)


def _outcome(run, text: str, pipeline: str) -> str:
    """The printed module, or every error with its location (jax 0.11 on verifies unreduced axes first)."""
    try:
        return run(text, pipeline)
    except ir.MLIRError as error:
        return "\n".join(f"{d.location}: {d.message}" for d in error.error_diagnostics)


@pytest.mark.parametrize("key", ["export-pipeline-collectives", "export-pipeline-collectives-cmv1"])
@pytest.mark.parametrize("case", list(CASES))
def test_export_pipeline_with_collectives_matches_cpp_on_edge_case(case, key):
    pipeline = PASSES[key][0]
    assert _outcome(print_after_pysdy, CASES[case], pipeline) == _outcome(cpp_output, CASES[case], pipeline)


@pytest.mark.parametrize("pipeline", [CONSTRAINT_TO_RESHARD, INSERT_RESHARDS, INSERT_RESHARDS_FULL])
def test_edge_cases_exercise_the_pass(pipeline):
    """Several hand-written cases are changed by the C++ pass, so the agreement above means something."""
    changed = [case for case, text in CASES.items() if cpp_output(text, pipeline) != cpp_output(text, "")]
    assert len(changed) >= (1 if pipeline == CONSTRAINT_TO_RESHARD else 5)


def test_corpus_exercises_insert_reshards():
    """The corpus inputs make the C++ pass insert reshards or all-reduces in both modes."""
    inputs = corpus_before("default", "sdy-insert-explicit-reshards")
    for pipeline in (INSERT_RESHARDS, INSERT_RESHARDS_FULL):
        assert any(cpp_output(text, pipeline) != cpp_output(text, "") for text in inputs.values())


def test_reduce_with_mixed_body_as_cpp():
    """jax 0.10 and 0.11 all-reduce the partial results of an argmax-like reduce; jax 0.12 leaves them as they are,
    for its `sdy-convert-global-to-local` to gather and reduce again."""
    expected = cpp_output(MIXED_REDUCE, INSERT_RESHARDS_FULL)
    if installed().mixed_reduce_left_unreduced:
        assert "sdy.all_reduce" not in expected
    else:
        assert expected.count("sdy.all_reduce {\"z\"}") == 2
    assert print_after_pysdy(MIXED_REDUCE, INSERT_RESHARDS_FULL) == expected


@pytest.mark.parametrize("pipeline", [INSERT_RESHARDS, INSERT_RESHARDS_FULL])
def test_results_on_two_devices_as_cpp(pipeline):
    """From jax 0.11, an op with results on two devices is an error on the op with jaxlib's message; before, the
    pass leaves it alone."""
    outcome = _outcome(print_after_pysdy, SINGLE_DEVICE_CONFLICT, pipeline)
    assert outcome == _outcome(cpp_output, SINGLE_DEVICE_CONFLICT, pipeline)
    refused = "op has conflicting single-device result shardings" in outcome
    assert refused == installed().reshards_around_single_device_ops
