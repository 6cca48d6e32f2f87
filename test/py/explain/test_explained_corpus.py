"""Every program of the differential corpus, lowered by JAX with its source locations, and every bundled example,
explained: every axis of every sharding has a chain that ends in an annotation, every step of a JAX program names
the line of jax_corpus.py that made its op, every reshard has a cause, and the HTML report holds every tensor it
draws and every reshard."""

import glob
import os

import pytest

from browser import parse_html
from jax_corpus import corpus_with_locations, program_names
from pysdy.explanation.build import explain_text
from pysdy.explanation.html_report import drawn_tensors, render_html

CORPUS_FILE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "jax_corpus.py")
EXAMPLES = sorted(glob.glob(os.path.join(os.path.dirname(CORPUS_FILE), "..", "..", "examples", "*.mlir")))


def check(explanation, step_file: str | None) -> None:
    chains = [(tensor.name, chain) for tensor in explanation.tensors for chain in tensor.chains]
    assert all(chain.annotation is not None for _, chain in chains), [
        (value, chain.dim, chain.axis) for value, chain in chains if chain.annotation is None
    ]
    for _, chain in chains:
        for step in chain.steps:
            assert step.location is not None, step
            assert step_file is None or step.location.startswith(step_file + ":"), step
    for reshard in explanation.reshards:
        assert reshard.reason, reshard
    root = parse_html(render_html(explanation))
    assert [s.attributes["data-name"] for s in root.iter("section", "tensor")] == [t.name for t in drawn_tensors(explanation)]
    assert [s.attributes["data-value"] for s in root.iter("section", "reshard")] == [r.value for r in explanation.reshards]


@pytest.mark.parametrize("name", program_names())
def test_a_corpus_program_is_explained_from_annotations_down_to_user_lines(name):
    check(explain_text(corpus_with_locations()[name], name), CORPUS_FILE)


@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_a_bundled_example_is_explained(path):
    with open(path) as source:
        check(explain_text(source.read(), path), None)
