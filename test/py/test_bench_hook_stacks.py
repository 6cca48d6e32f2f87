"""bench/jax_hook.py --stacks (bench/hook_on_stacks.py): every hooked compile is a fresh one through the hook, and
its row computes what the header says."""

import os
import sys

import jax_corpus  # noqa: F401  (8 CPU devices, before JAX creates its backend)
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))

import hook_on_stacks  # noqa: E402
import jax  # noqa: E402
from transformer_stack import transformer_stack  # noqa: E402


def _jitted(stack):
    return jax.jit(stack.function, in_shardings=stack.in_shardings, out_shardings=stack.out_shardings)


def test_one_layer_measured_each_way():
    measured = hook_on_stacks.measure(1, runs=2)
    assert {key: len(times) for key, times in measured.items()} == {"plain": 2, "hooked": 2, "hand_off": 2, "cpp": 2}
    assert all(time > 0 for times in measured.values() for time in times)
    assert all(hand_off < hooked for hand_off, hooked in zip(measured["hand_off"], measured["hooked"]))


def test_a_hooked_compile_from_jaxs_cache_is_refused(monkeypatch):
    stack = transformer_stack(1)
    jitted = _jitted(stack)
    hook_on_stacks.compile_ms(jitted, stack.arguments, hooked=True)
    monkeypatch.setattr(jax, "clear_caches", lambda: None)
    with pytest.raises(RuntimeError, match="not a fresh compile"):
        hook_on_stacks.compile_ms(jitted, stack.arguments, hooked=True)


def test_row_medians_and_ratio():
    measured = {"plain": [100, 300, 200], "hooked": [500, 260, 400], "hand_off": [50, 70, 60], "cpp": [40, 80, 100]}
    assert hook_on_stacks.row(4, measured) == ["4", "200", "400", "200", "80", "2.50", "60"]
