"""Modules propagated one after another in one context, as the JAX hook hands them off, each get jaxlib's output:
what pysdy memoizes for one module (steps, rules, parsed shardings) serves the next only where it is the same."""

from jaxlib.mlir import ir

from jax_corpus import corpus
from propagation_oracle import cpp_outcome, first_difference
from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import Mesh, MeshAxis
from pysdy.passes.pipeline import parse_pipeline, run_pipeline
from pysdy.passes.propagation.step_cache import step_cache_for

PIPELINE = "sdy-propagation-pipeline"


def test_the_corpus_propagated_in_one_context_matches_cpp_program_by_program():
    outputs = {}
    with make_context():
        for name, text in corpus().items():
            module = ir.Module.parse(text)
            try:
                run_pipeline(module, parse_pipeline(PIPELINE))
                outputs[name] = str(module)
            except ir.MLIRError as failure:
                outputs[name] = f"error: {failure}\n{module}"
    differences = [
        f"{name}: {first_difference(expected, outputs[name])}"
        for name, text in corpus().items()
        if (expected := cpp_outcome(text, PIPELINE)) != outputs[name]
    ]
    assert len(outputs) > 50
    assert differences == []


def test_modules_share_a_step_cache_only_when_their_meshes_are_the_same():
    two, four = Mesh((MeshAxis("a", 2),)), Mesh((MeshAxis("a", 4),))
    with make_context():
        cache = step_cache_for({"mesh": two})
        assert step_cache_for({"mesh": Mesh((MeshAxis("a", 2),))}) is cache
        assert step_cache_for({"mesh": four}) is not cache
        assert step_cache_for({"other": two}) is not cache
        assert step_cache_for({"mesh": two, "other": four}) is not cache
    with make_context():
        assert step_cache_for({"mesh": two}) is not cache  # a new context starts afresh
