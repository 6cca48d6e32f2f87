"""Every program of the differential corpus, lowered by JAX with its source locations, explained: every axis of every
sharding has a chain that ends in an annotation, and every step names the line of jax_corpus.py that made its op."""

import os

import pytest

from jax_corpus import corpus_with_locations, program_names
from pysdy.explanation.build import explain_text

CORPUS_FILE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "jax_corpus.py")


@pytest.mark.parametrize("name", program_names())
def test_every_axis_has_a_chain_from_an_annotation_down_to_user_lines(name):
    explanation = explain_text(corpus_with_locations()[name], name)
    chains = [(tensor.name, chain) for tensor in explanation.tensors for chain in tensor.chains]
    assert all(chain.annotation is not None for _, chain in chains), [
        (value, chain.dim, chain.axis) for value, chain in chains if chain.annotation is None
    ]
    for _, chain in chains:
        for step in chain.steps:
            assert step.location is not None and step.location.startswith(CORPUS_FILE + ":"), step
    for reshard in explanation.reshards:
        assert reshard.reason, reshard
        assert reshard.location is None or reshard.location.startswith(CORPUS_FILE + ":"), reshard
