"""Every propagation pass gives exactly jaxlib's C++ output on every program of the JAX corpus."""

import pytest

from jax_corpus import program_names
from oracle import cpp_output
from propagation_oracle import first_difference, imported_corpus, pysdy_output

PASSES = [
    "sdy-basic-propagate",
    "sdy-aggressive-propagate",
    "sdy-op-priority-propagate",
    "sdy-user-priority-propagate",
    "sdy-user-priority-propagate{conservative-propagation=true}",
    "sdy-aggressive-propagate{propagation-strategy=basic-then-aggressive}",
]


@pytest.mark.parametrize("pass_", PASSES)
@pytest.mark.parametrize("program", program_names())
def test_pass_matches_cpp(program, pass_):
    text = imported_corpus()[program]
    expected = cpp_output(text, pass_)
    actual = pysdy_output(text, pass_)
    assert actual == expected, first_difference(expected, actual)
