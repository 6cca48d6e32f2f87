"""Each mesh, sharding and data-flow import pass, C++ and pysdy, on every JAX corpus program as lowered and
as the pass meets it in the C++ propagation pipeline: the printed modules must be identical."""

from __future__ import annotations

import pytest

from import_oracle import corpus_programs, corpus_inputs, run_cpp, run_py

PIPELINES = (
    "sdy-lift-inlined-meshes",
    "sdy-inline-meshes",
    "sdy-remove-size-one-axes",
    "sdy-manual-axes-cleanup",
    "sdy-add-data-flow-edges",
    "sdy-apply-sharding-constraints",
    "sdy-sharding-group-import",
    "sdy-constant-or-scalar-splitter",
)


@pytest.mark.parametrize("name", sorted(corpus_programs()))
@pytest.mark.parametrize("pipeline", PIPELINES)
def test_pass_matches_cpp(pipeline, name):
    for variant, text in corpus_inputs(name, pipeline.split("{")[0]):
        assert run_py(text, pipeline) == run_cpp(text, pipeline), f"{pipeline} on {name} ({variant})"
