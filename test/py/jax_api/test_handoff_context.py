"""The hook's hand-offs share one MLIR context, renewed after a bounded count; sharing changes no hand-off's output
and survives hand-offs made on XLA's host-callback threads."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from jax_corpus import corpus

from pysdy.dialects.context import make_context
from pysdy.jax import handoff

PROGRAMS = ("mlp_forward", "transformer_block_grad", "scan_over_layers", "mlp_grad", "shard_map_psum")


def _alone(text: str, route: str) -> str:
    """The hand-off in a context of its own, with pysdy's memos emptied (as when every hand-off made one)."""
    make_context()  # empties pysdy's memos of the shared context
    handoff.SHARED_CONTEXT.uses = handoff.HAND_OFFS_PER_CONTEXT  # the next hand-off makes a fresh context
    return handoff.hand_off(text, route=route).text


@pytest.mark.parametrize("route", ["sdy", "gspmd"])
def test_hand_offs_in_a_shared_context_give_what_each_gives_alone(route, monkeypatch):
    texts = [corpus()[name] for name in PROGRAMS]
    alone = [_alone(text, route) for text in texts]
    monkeypatch.setattr(handoff, "HAND_OFFS_PER_CONTEXT", 4)  # a renewal falls inside the sequence below
    shared = [handoff.hand_off(text, route=route).text for text in texts + texts[::-1]]
    assert shared == alone + alone[::-1]


def test_a_context_serves_a_bounded_number_of_hand_offs(monkeypatch):
    monkeypatch.setattr(handoff, "HAND_OFFS_PER_CONTEXT", 2)
    handoff.SHARED_CONTEXT.uses = 2
    contexts = []
    for _ in range(3):
        with handoff.SHARED_CONTEXT.entered() as context:
            contexts.append(context)
    assert contexts[0] is contexts[1] and contexts[2] is not contexts[0]


# A program whose host callback compiles twice, and so hands off, once on the XLA thread that runs it and once on a
# thread of its own. Python makes the callback thread's state as the callback starts and clears it as it returns. A
# hand-off context kept in that thread's thread-local storage (once pysdy's memos had moved to the other thread's
# context, the last reference to it) was freed in that clearing, and Python 3.11 segfaulted in that free (under gdb:
# PyObject_GC_Del of the Context, reading the interpreter state; jax 0.10.2's shard_map_test did, hooked). The child
# runs the callback several times and checks every value.
CALLBACK_THAT_COMPILES = textwrap.dedent(
    """
    import threading
    import jax, numpy as np, jax.numpy as jnp
    jax.config.update("jax_num_cpu_devices", 8)
    import pysdy.jax
    pysdy.jax.install()

    def scaled(x, scale):  # a new constant each time: a new module, compiled through the hook
        return np.asarray(jax.jit(lambda v: v * scale)(np.asarray(x)), dtype=np.float32)

    def host(x):
        here = scaled(x, float(x[0]) + 2.0)
        elsewhere = []
        thread = threading.Thread(target=lambda: elsewhere.append(scaled(x, float(x[0]) + 3.0)))
        thread.start()
        thread.join()
        return here + elsewhere[0]

    # On 8 devices, XLA runs the program, and so the callback, on its own threads (one device would run it here).
    sharding = jax.sharding.NamedSharding(jax.make_mesh((8,), ("x",)), jax.sharding.PartitionSpec("x"))

    @jax.jit
    def step(x):
        return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x) + 1

    for i in range(6):
        x = jax.device_put(jnp.arange(16, dtype=jnp.float32) + i, sharding)
        expected = (np.arange(16) + i) * (2 * i + 5.0) + 1
        np.testing.assert_allclose(np.asarray(step(x)), expected, rtol=1e-6)
    print("compiles through pysdy:", pysdy.jax.hook_summary().compiles)
    """
)


def test_hand_offs_on_host_callback_threads_do_not_crash(tmp_path):
    script = tmp_path / "callback_that_compiles.py"
    script.write_text(CALLBACK_THAT_COMPILES)
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("PYSDY_", "JAX_PYSDY"))}
    completed = subprocess.run(
        [sys.executable, "-X", "faulthandler", str(script)], capture_output=True, text=True, timeout=600, env=environment
    )
    assert completed.returncode == 0, completed.stderr[-4000:]
    compiles = int(completed.stdout.split("compiles through pysdy:")[1])
    assert compiles >= 13, completed.stdout  # the step, and the callback's two programs at each of the 6 calls
