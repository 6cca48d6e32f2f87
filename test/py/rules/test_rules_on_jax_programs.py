"""Checks pysdy's op sharding rules against jaxlib's C++ registry on every op of real JAX-lowered programs."""

from __future__ import annotations

import pytest
from jax_corpus import corpus, program_names
from oracle import assert_rules_match


@pytest.mark.parametrize("conservative", [False, True], ids=["aggressive", "conservative"])
@pytest.mark.parametrize("program", program_names())
def test_rules_match_cpp_on_jax_program(program, conservative):
    assert_rules_match(corpus()[program], conservative=conservative)
