"""Each call-graph import pass and the import pipeline, C++ and pysdy, on every JAX corpus program as lowered
and as the pass meets it in the C++ propagation pipeline: the printed modules must be identical."""

from __future__ import annotations

import pytest

from import_oracle import corpus_programs, corpus_inputs, run_cpp, run_py

PIPELINES = (
    "sdy-propagate-sharding-from-func-to-call",
    "sdy-flatten-call-graph",
    "sdy-import-func-calls",
    "sdy-import-func-calls{add-data-flow-edges-on-named-computations=false}",
    "sdy-add-func-data-flow-edges",
    "sdy-pre-order-funcs",
    "sdy-import-pipeline",
    "sdy-import-pipeline{dedup-functions-fully=true}",
)


@pytest.mark.parametrize("name", sorted(corpus_programs()))
@pytest.mark.parametrize("pipeline", PIPELINES)
def test_pass_matches_cpp(pipeline, name):
    for variant, text in corpus_inputs(name, pipeline.split("{")[0]):
        assert run_py(text, pipeline) == run_cpp(text, pipeline), f"{pipeline} on {name} ({variant})"
