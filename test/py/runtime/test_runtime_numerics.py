"""Corpus programs run by the runtime on 8 CPU devices (both routes) equal their reference run, with the
collectives their shardings require in the partitioned HLO; lowered for GSPMD instead, they run through
pysdy's `xla-sdy-stablehlo-import-pipeline` and equal theirs too."""

from __future__ import annotations

import functools
import re

import jax_corpus
import pytest
from jax._src import config as jax_config
from runtime_runs import CheckedRun, checked_run

from pysdy import versions
from pysdy.runtime.errors import RuntimeInputError

ROUTES = ("gspmd", "sdy")
REDUCTION = {"all-reduce", "reduce-scatter"}
# Program -> collectives of which at least one must appear: a contracting dimension sharded needs a
# reduction, a shard_map collective is kept as written.
REQUIRED_COLLECTIVES = {
    "mlp_forward": REDUCTION,
    "mlp_grad": REDUCTION,
    "transformer_block_forward": REDUCTION,
    "transformer_block_grad": REDUCTION,
    "scan_over_layers": REDUCTION | {"all-gather"},
    "cond_branches": REDUCTION,
    "shard_map_psum": {"all-reduce"},
    "scatter_set_and_add": None,
    "embedding_grad": None,
    "conv2d_nhwc": REDUCTION,
}
FAST_PROGRAMS = list(REQUIRED_COLLECTIVES)
WHOLE_CORPUS_REQUIRED = {
    "shard_map_all_gather": {"all-gather"},
    "shard_map_ppermute": {"collective-permute"},
    "shard_map_all_to_all": {"all-to-all"},
    "shard_map_psum_scatter_and_axis_index": {"reduce-scatter"},
    "attention_forward": REDUCTION,
    "conv2d_nchw_grouped": REDUCTION | {"all-gather"},
    # Partial sums left unreduced, then reduced (on the GSPMD route, in the fully manual computation of XLA's export).
    "explicit_mesh_unreduced_matmul": {"all-reduce"},
}
# Programs that cannot run, by route, with the error that says why.
CANNOT_RUN = {
    # Up to jaxlib 0.11, XLA's CPU FFT fails at run time once partitioned (a RET_CHECK on the operand's layout in
    # fft_thunk.cc); plain jax.jit of the same program with the same shardings fails the same way.
    **(
        {"fft_and_inverse": {"gspmd": "fft_thunk.cc", "sdy": "fft_thunk.cc"}}
        if versions.installed().xla_cpu_fft_fails_when_partitioned
        else {}
    ),
    # Host callbacks call Python functions of the process that lowered the module: the runtime refuses them
    # (pysdy.jax.jit runs them, see test/py/jax_api).
    **{
        name: {route: "calls a Python function of the process that lowered it" for route in ROUTES}
        for name in ("io_callback_on_sharded_input", "ordered_io_callback_and_debug_print", "io_callback_in_loop")
    },
}


@functools.cache
def lowered(name: str) -> str:
    """One corpus program's StableHLO text (lowering only that program, not the whole corpus)."""
    return getattr(jax_corpus, name)()


@functools.cache
def lowered_for_gspmd(name: str) -> str:
    """The program as JAX lowers it without Shardy (`mhlo.sharding`s, shard_maps as custom calls)."""
    with jax_config.use_shardy_partitioner(False):
        return getattr(jax_corpus, name)()


def run_and_check(name: str, route: str, text: str | None = None) -> CheckedRun:
    run = checked_run(lowered(name) if text is None else text, route)
    assert run.check.passed, f"{name} ({route}) against {run.check.reference}: {run.check.mismatches}"
    return run


def _assert_required_collectives(name: str, run: CheckedRun, required: set[str] | None) -> None:
    if required is None:
        return
    kinds = run.collective_kinds
    assert kinds & required, f"{name}: partitioned HLO has {sorted(kinds)}, expected one of {sorted(required)}"


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("name", FAST_PROGRAMS)
def test_corpus_program_matches_reference(name, route):
    run = run_and_check(name, route)
    _assert_required_collectives(name, run, REQUIRED_COLLECTIVES[name])


@pytest.mark.slow
@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("name", jax_corpus.program_names())
def test_whole_corpus_matches_reference(name, route):
    if route in CANNOT_RUN.get(name, {}):
        with pytest.raises(RuntimeInputError, match=re.escape(CANNOT_RUN[name][route])):
            run_and_check(name, route)
        return
    run = run_and_check(name, route)
    required = REQUIRED_COLLECTIVES.get(name) or WHOLE_CORPUS_REQUIRED.get(name)
    _assert_required_collectives(name, run, required)


# JAX lowers unreduced shardings only for Shardy (see test/py/gspmd/test_import_pipeline.py).
NO_GSPMD_LOWERING = {"explicit_mesh_unreduced_matmul"}


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in jax_corpus.program_names() if n not in NO_GSPMD_LOWERING])
def test_whole_corpus_lowered_for_gspmd_matches_reference(name):
    text = lowered_for_gspmd(name)
    assert "mhlo.sharding" in text and "sdy.mesh" not in text
    if "gspmd" in CANNOT_RUN.get(name, {}):
        with pytest.raises(RuntimeInputError, match=re.escape(CANNOT_RUN[name]["gspmd"])):
            run_and_check(name, "gspmd", text)
        return
    run = run_and_check(name, "gspmd", text)
    assert run.pipeline.startswith("xla-sdy-stablehlo-import-pipeline,")
