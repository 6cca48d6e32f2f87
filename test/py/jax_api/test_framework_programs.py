"""Training steps written with Flax, Equinox and optax, run by plain JAX and through `pysdy.jax` in verify mode on
8 CPU devices: the same results (relative tolerance by dtype), no fallback, no verify difference, and no more
collective bytes per step than plain JAX. Each prints its row of the table."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import warnings

import jax
import jax_corpus  # noqa: F401  (8 CPU devices, before the backend starts)
import numpy as np
import pytest
from framework_programs import FRAMEWORKS, PROGRAMS
from jax._src import compiler

import pysdy.jax
from pysdy.jax import hook
from pysdy.runtime.collectives import sent_bytes_per_run
from pysdy.runtime.comparison import mismatch
from pysdy.runtime.pysdy_passes import PARTITIONING_ROUTE, ROUTES


@contextlib.contextmanager
def partitioned_hlo_of_compiles():
    """Within the block, the partitioned HLO of every executable XLA compiles (hooked or not) is appended."""
    texts: list[str] = []
    original = hook._STATE.original

    @functools.wraps(original)
    def recording(*args, **kwargs):
        executable = original(*args, **kwargs)
        texts.append(executable.hlo_modules()[0].to_string())
        return executable

    seam_is_plain = compiler.compile_or_get_cached is original  # else the hook is in the seam and calls `original`
    hook._STATE.original = recording
    if seam_is_plain:
        compiler.compile_or_get_cached = recording
    try:
        yield texts
    finally:
        hook._STATE.original = original
        if seam_is_plain:
            compiler.compile_or_get_cached = original


@dataclasses.dataclass(frozen=True)
class Runs:
    """One step of a program run by plain JAX and through the hook in verify mode."""

    reference: list[np.ndarray]
    hooked: list[np.ndarray]
    compiles: int
    fallbacks: tuple[str, ...]
    differences: tuple[str, ...]
    plain_bytes: int
    hooked_bytes: int


@functools.cache
def runs(name: str, route: str) -> Runs:
    with partitioned_hlo_of_compiles() as plain_hlo:
        reference = _leaves(PROGRAMS[name]()())
    before = pysdy.jax.hook_summary()
    pysdy.jax.install(route=route, verify=True)
    try:
        with partitioned_hlo_of_compiles() as hooked_hlo:
            hooked = _leaves(PROGRAMS[name]()())
    finally:
        pysdy.jax.uninstall()
    after = pysdy.jax.hook_summary()
    result = Runs(
        reference,
        hooked,
        after.compiles - before.compiles,
        after.fallbacks[len(before.fallbacks) :],
        after.differences[len(before.differences) :],
        sum(sent_bytes_per_run(text, 8) for text in plain_hlo),
        sum(sent_bytes_per_run(text, 8) for text in hooked_hlo),
    )
    print(
        f"\n{name} | jax {jax.__version__} | route {route} | compiles {result.compiles} | fallbacks "
        f"{len(result.fallbacks)} | differences {len(result.differences)} | collective bytes hooked "
        f"{result.hooked_bytes} vs plain {result.plain_bytes}"
    )
    return result


def _framework(name: str):
    """Imports the program's framework, or skips saying why it is not there for this JAX line."""
    framework = FRAMEWORKS[name]
    try:
        importlib.import_module(framework)
    except Exception as error:  # an old framework may fail on import against a JAX it predates
        pytest.skip(f"{framework} is not usable with jax {jax.__version__}: {type(error).__name__}: {error}")


def _leaves(outputs) -> list[np.ndarray]:
    return [np.asarray(leaf) for leaf in jax.tree.leaves(outputs)]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_training_step_through_the_hook_equals_plain_jax(name, route):
    _framework(name)
    run = runs(name, route)
    assert run.compiles >= 1
    assert run.fallbacks == () and run.differences == (), (run.fallbacks, run.differences)
    assert len(run.hooked) == len(run.reference)
    for index, (actual, expected) in enumerate(zip(run.hooked, run.reference)):
        assert mismatch(actual, expected) is None, f"{name} result {index}: {mismatch(actual, expected)}"


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_training_step_sends_no_more_collective_bytes_than_plain_jax(name, route):
    _framework(name)
    run = runs(name, route)
    assert run.hooked_bytes <= run.plain_bytes, f"{name}: {run.hooked_bytes} bytes a step, plain JAX {run.plain_bytes}"


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_training_step_on_the_pysdy_route_equals_plain_jax(name):
    """On the pysdy route each of the step's compiles is partitioned by pysdy, or, where pysdy refuses (loops, say),
    compiled by XLA alone with a warning saying why; the step equals plain JAX's either way."""
    _framework(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pysdy.jax.PysdyFallbackWarning)  # counted in the hook's summary instead
        run = runs(name, PARTITIONING_ROUTE)
    assert run.compiles >= 1 and run.differences == ()
    assert all("without pysdy" in fallback for fallback in run.fallbacks), run.fallbacks
    for index, (actual, expected) in enumerate(zip(run.hooked, run.reference)):
        assert mismatch(actual, expected) is None, f"{name} result {index}: {mismatch(actual, expected)}"
