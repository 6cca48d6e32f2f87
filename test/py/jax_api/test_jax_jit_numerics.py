"""The JAX corpus through `pysdy.jax.jit` on 8 CPU devices: outputs equal plain JAX's, shardings are the executable's,
the partitioned HLO has the collectives the shardings require, and it sends no more bytes per run than XLA's own
route."""

from __future__ import annotations

import re

import jax
import jax_corpus  # noqa: F401  (8 CPU devices, before the backend starts)
import numpy as np
import pytest
from corpus_programs import corpus_programs
from line_side import when
from numerics import collective_kinds, concrete_args, plain_jit_hlo, run_both

import pysdy.jax
from pysdy.jax.hook import ROUTE
from pysdy.runtime.collectives import sent_bytes_per_run
from pysdy.runtime.comparison import mismatch
from pysdy.runtime.pysdy_passes import ROUTES

# Bodies that name the 8-device mesh (shard_map, sharding constraints) cannot run unpartitioned on one device;
# their reference is plain `jax.jit` with the same shardings (XLA's own Shardy partitioner).
MESH_BOUND = {
    "shard_map_psum",
    "shard_map_all_gather",
    "shard_map_ppermute",
    "shard_map_all_to_all",
    "shard_map_psum_scatter_and_axis_index",
    "shard_map_inside_jit_mixed",
    "sharding_constraints_on_intermediates",
    "conflicting_annotations",
    "multiple_axes_per_dimension",
    "replicated_and_unconstrained",
    "shard_alike_conflicting_constraints",
    "shard_alike_around_shard_map",
    "shard_alike_inside_shard_map",
    "jitted_calls_inside_and_outside_shard_map",
}
# Up to jaxlib 0.11, XLA's CPU FFT needs a dim-0-major layout, which the per-device FFT on sharded batch dims does
# not have: it fails at run time in plain `jax.jit` (XLA's Shardy route) exactly as through pysdy; only JAX's own
# GSPMD lowering, which replicates the FFT, runs it. jaxlib 0.12's runs it.
# The collective each program's shardings make necessary, and why.
REQUIRED_COLLECTIVES = {
    "mlp_forward": "all-reduce",  # the second matmul contracts over "y"
    "transformer_block_grad": "all-reduce",  # weight gradients of a batch sharded over "x"
    "mesh_1d_data_parallel": "all-reduce",  # replicated gradients of a batch sharded over "d"
    "conv2d_nhwc": "all-reduce",  # input features sharded over "y"
    "sharding_constraints_on_intermediates": "all-gather",  # P("x", "y") transposed into P("y", None)
    "shard_map_psum": "all-reduce",
    "shard_map_all_gather": "all-gather",
    "shard_map_ppermute": "collective-permute",
    "shard_map_all_to_all": "all-to-all",
    "shard_map_psum_scatter_and_axis_index": "reduce-scatter",
    "shard_map_inside_jit_mixed": "all-reduce",
}
# Loops with loop-invariant state, whose sharding jaxlib's HLO translation rejects as it is: the hand-off returns
# that state through a sharding constraint (runtime/xla_limits.py), so the loop's tuple sharding reaches XLA.
LOOPS_WITH_INVARIANT_STATE = {
    "scan_over_layers",
    "scan_over_layers_grad",
    "while_loop_power_iteration",
    "linalg_solve_lu",
    "shard_alike_in_scan_body",
}
# Programs whose partitioned form sends more bytes per run than XLA's own route (plain jax.jit), and why: both come
# from propagation, not from the export (XLA's own export of pysdy's propagated module sends the same bytes). XLA
# inlines calls and lifts loop invariants before its propagation, jaxlib's C++ Shardy (and pysdy) propagate JAX's
# module as it is.
BYTES_ABOVE_XLA = {
    # 4704 B against 4480 on jax 0.10.2 (equal on 0.11 and 0.12): XLA shards the loop differently once it has lifted
    # the weight out of it (test_export_pipeline.py, PROPAGATION_DIFFERS).
    "io_callback_in_loop": "XLA lifts the loop-invariant weight before propagating",
    # 750 B against 702: the slices and the pad (a call) of a dim split unevenly over "y".
    "slicing_padding_concat": "XLA inlines the pad's call before propagating",
}
FAST = [
    "mlp_forward",
    "transformer_block_forward",
    "scan_over_layers",
    "cond_branches",
    "shard_map_psum",
    "shard_map_all_to_all",
    "scatter_set_and_add",
    "conv2d_nhwc",
    "sharding_constraints_on_intermediates",
]
def _assert_close(name: str, index: int, partitioned: np.ndarray, reference: np.ndarray) -> None:
    """Equal for integers; for floats within the dtype's relative tolerance (pysdy.runtime.comparison), since
    partitioned reductions add in another order."""
    if reference.dtype.kind in "fc":
        assert np.all(np.isfinite(reference)), f"{name} output {index}: the reference is not finite"
    difference = mismatch(partitioned, reference)
    assert difference is None, f"{name} output {index}: {difference}"


# What each route hands XLA for a loop whose sharding is kept: on the sdy route, constraints on its results.
LOOP_SHARDING_HANDED = {
    "gspmd": r'stablehlo\.while.*mhlo\.sharding = "\{\{',
    "sdy": r"(?s)(%\w+):\d+ = stablehlo\.while.*sdy\.sharding_constraint \1#",
}


def _check_program(name: str, route: str) -> None:
    program = corpus_programs()[name]
    compiles_before = pysdy.jax.hook_summary().compiles
    with ROUTE(route):
        run = run_both(program, reference_on_mesh=name in MESH_BOUND)
        handed = run.lowered.exported_text()
    assert pysdy.jax.hook_summary().compiles > compiles_before, "the call did not compile through pysdy"
    compilation = pysdy.jax.compilations()[-1]
    assert compilation.route == route
    assert not any(op in note for note in compilation.notes for op in ("stablehlo.while", "stablehlo.case")), compilation.notes
    assert len(run.partitioned) == len(run.reference)
    for index, (partitioned, reference) in enumerate(zip(run.partitioned, run.reference)):
        _assert_close(name, index, np.asarray(partitioned), reference)
    compiled_shardings = jax.tree.leaves(run.compiled.output_shardings)
    for index, (array, sharding) in enumerate(zip(run.partitioned, compiled_shardings)):
        assert array.sharding.is_equivalent_to(sharding, array.ndim), f"{name} output {index}"
        assert len(array.sharding.device_set) == 8
    if name in REQUIRED_COLLECTIVES:
        assert REQUIRED_COLLECTIVES[name] in collective_kinds(run.compiled.as_text())
    if name in LOOPS_WITH_INVARIANT_STATE:
        assert re.search(LOOP_SHARDING_HANDED[route], handed), name
    if name not in BYTES_ABOVE_XLA:
        sent = sent_bytes_per_run(run.compiled.as_text(), 8)
        assert sent <= sent_bytes_per_run(plain_jit_hlo(name), 8), f"{name}: {sent} bytes"


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("name", FAST)
def test_corpus_program_matches_plain_jax(name, route):
    _check_program(name, route)


# Checked on both routes by test_jax_host_callbacks.py (whose compiles JAX's cache would hand these tests).
HOST_CALLBACKS = {"io_callback_on_sharded_input", "ordered_io_callback_and_debug_print", "io_callback_in_loop"}


@pytest.mark.slow
@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(
    "name", [n for n in corpus_programs() if n not in FAST and n not in HOST_CALLBACKS and n != "fft_and_inverse"]
)
def test_corpus_program_matches_plain_jax_long(name, route):
    _check_program(name, route)


@pytest.mark.slow
@when("xla_cpu_fft_fails_when_partitioned", False)
def test_partitioned_fft_matches_plain_jax():
    for route in ROUTES:
        _check_program("fft_and_inverse", route)


@pytest.mark.slow
@when("xla_cpu_fft_fails_when_partitioned")
def test_partitioned_fft_fails_in_xla_as_under_plain_jit():
    """XLA's CPU FFT fails at run time once partitioned (a layout RET_CHECK in fft_thunk.cc), through pysdy as
    through plain jax.jit."""
    program = corpus_programs()["fft_and_inverse"]
    args = concrete_args(program)
    for jitted in (pysdy.jax.jit(program.fn, **program.jit_kwargs()), jax.jit(program.fn, **program.jit_kwargs())):
        with pytest.raises(jax.errors.JaxRuntimeError, match=r"fft_thunk.cc.*IsMonotonicWithDim0Major"):
            jax.block_until_ready(jitted(*args))


def test_every_corpus_program_lowering_through_jit_is_covered():
    """The only corpus program not here is the explicit-mesh one, which calls jit itself (see test_jax_hook.py)."""
    assert set(jax_corpus.program_names()) - set(corpus_programs()) == {"explicit_mesh_unreduced_matmul"}
