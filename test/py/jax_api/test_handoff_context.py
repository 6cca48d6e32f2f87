"""Hand-offs share a context for a while, then start a fresh one; neither changes what any hand-off gives XLA."""

from __future__ import annotations

import pytest

from jax_corpus import corpus
from pysdy.dialects.context import make_context
from pysdy.jax import handoff

PROGRAMS = ("mlp_forward", "transformer_block_grad", "scan_over_layers", "mlp_grad")


def _alone(text: str, route: str) -> str:
    """The hand-off in a context of its own, as before hand-offs shared one."""
    handoff._thread_context.uses = handoff.HAND_OFFS_PER_CONTEXT  # the next hand-off makes a fresh context
    return handoff.hand_off(text, route=route).text


@pytest.mark.parametrize("route", ["sdy", "gspmd"])
def test_hand_offs_in_a_shared_context_give_what_each_gives_alone(route, monkeypatch):
    texts = [corpus()[name] for name in PROGRAMS]
    alone = [_alone(text, route) for text in texts]
    monkeypatch.setattr(handoff, "HAND_OFFS_PER_CONTEXT", 3)  # a renewal falls inside the sequence below
    shared = [handoff.hand_off(text, route=route).text for text in texts + texts]
    assert shared == alone + alone


def test_a_context_serves_a_bounded_number_of_hand_offs(monkeypatch):
    monkeypatch.setattr(handoff, "HAND_OFFS_PER_CONTEXT", 2)
    make_context()  # whatever came before
    handoff._thread_context.uses = 2
    first = handoff._shared_context()
    assert handoff._shared_context() is first
    assert handoff._shared_context() is not first
