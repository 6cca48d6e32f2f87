"""`pysdy.jax` on the pysdy route: pysdy partitions the program itself and XLA gets the per-device program in one
fully manual computation (no sdy collective left, every collective pysdy's), with outputs equal to plain JAX's;
a program pysdy cannot partition falls back to XLA alone with a warning, never silently."""

from __future__ import annotations

import jax_corpus  # noqa: F401  (8 CPU devices, before the backend starts)
import numpy as np
import pytest
from corpus_programs import corpus_programs
from numerics import run_both

import pysdy.jax
from pysdy.jax.hook import ROUTE
from pysdy.runtime.comparison import mismatch

# Programs pysdy partitions on every line, with the StableHLO collective its per-device program must have.
PARTITIONED = {
    "mlp_forward": "stablehlo.all_reduce",
    "attention_forward": None,
    "transformer_block_grad": "stablehlo.all_reduce",
    "mesh_1d_data_parallel": "stablehlo.all_reduce",
    "sharding_constraints_on_intermediates": "stablehlo.all_gather",
    "while_loop_power_iteration": "stablehlo.all_gather",
    "scan_over_layers": "stablehlo.all_reduce",
    "shard_map_psum": "stablehlo.all_reduce",
    "embedding_grad": "stablehlo.all_reduce",
}
# Programs with a window along a split dimension, which pysdy's conversion to local shapes does not handle yet.
FALLING_BACK = ("cumsum_and_cumprod",)
# Programs plain JAX runs on their mesh only (a constraint naming it, a shard_map).
_REFERENCE_ON_MESH = ("sharding_constraints_on_intermediates", "shard_map_psum")


def _run(name: str):
    program = corpus_programs()[name]
    before = pysdy.jax.hook_summary()
    with ROUTE("pysdy"):
        run = run_both(program, reference_on_mesh=name in _REFERENCE_ON_MESH)
    after = pysdy.jax.hook_summary()
    assert after.compiles > before.compiles, "the call did not compile through pysdy"
    for index, (partitioned, reference) in enumerate(zip(run.partitioned, run.reference)):
        problem = mismatch(np.asarray(partitioned), reference)
        assert problem is None, f"{name} output {index}: {problem}"
    return pysdy.jax.compilations()[-1], after.fallbacks[len(before.fallbacks) :]


@pytest.mark.parametrize("name", sorted(PARTITIONED))
def test_pysdy_partitions_and_xla_only_compiles(name):
    compilation, fallbacks = _run(name)
    assert fallbacks == ()
    assert compilation.route == "pysdy"
    handed = compilation.exported_module
    assert "sdy.manual_computation" in handed
    assert not any(f"sdy.{kind}" in handed for kind in ("all_reduce", "all_gather", "all_slice", "all_to_all"))
    if PARTITIONED[name] is not None:
        assert PARTITIONED[name] in handed


@pytest.mark.parametrize("name", FALLING_BACK)
def test_what_pysdy_cannot_partition_falls_back_with_a_warning(name):
    with pytest.warns(pysdy.jax.PysdyFallbackWarning, match="sdy-convert-global-to-local"):
        compilation, fallbacks = _run(name)
    assert compilation.route == "xla"
    assert len(fallbacks) == 1 and "sdy-convert-global-to-local" in fallbacks[0], fallbacks
