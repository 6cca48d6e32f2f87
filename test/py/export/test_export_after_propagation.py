"""`sdy-export-pipeline` after `sdy-propagation-pipeline`, as JAX runs them, on every JAX corpus program: the same
outcome as jaxlib's C++.

jaxlib's propagation pipeline already ends with the export passes, so here the export pipeline's passes meet a module
they have been through once (its reshards already inserted). The per-pass corpus tests, which hand each pass the
C++ pipeline's input to that pass, never show them such a module.
"""

import pytest

from export_inputs import assert_same_output
from jax_corpus import corpus, program_names

PIPELINES = {
    "export": "sdy-propagation-pipeline,sdy-export-pipeline",
    "export-with-collectives": "sdy-propagation-pipeline,sdy-export-pipeline{enable-insert-explicit-collectives=true}",
}


@pytest.mark.parametrize("program", program_names())
@pytest.mark.parametrize("key", list(PIPELINES))
def test_export_after_propagation_matches_cpp(key, program):
    assert_same_output(corpus()[program], PIPELINES[key])
