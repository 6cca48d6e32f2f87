"""What the hook tells the user: a `PysdyFallbackWarning` whenever XLA compiles without pysdy's module, verify mode's
`PysdyVerifyWarning` naming the op and source line where jaxlib's C++ Shardy differs, and pysdy's pass warnings on
the `pysdy.jax` logger instead of stderr."""

from __future__ import annotations

import dataclasses
import logging
import warnings

import jax
import jax.numpy as jnp
import jax_corpus  # noqa: F401  (8 CPU devices, before the backend starts)
import numpy as np
import pytest
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P
from jaxlib.mlir import ir

import pysdy.jax
from pysdy.dialects.context import make_context
from pysdy.jax import handoff, hook
from pysdy.passes.pipeline import parse_pipeline, run_pipeline
from pysdy.passes.propagation.rules import registry
from pysdy.runtime.comparison import mismatch


@pytest.fixture(scope="module")
def mesh():
    return jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)


def _matmul(mesh, suffix: str):
    def matmul(x, w):
        return jnp.tanh(x @ w)

    matmul.__name__ += suffix
    shardings = (NamedSharding(mesh, P("x", "y")), NamedSharding(mesh, P("y", None)))
    return jax.jit(matmul, in_shardings=shardings)


def _inputs():
    rng = np.random.default_rng(3)
    return rng.standard_normal((8, 16)).astype(np.float32), rng.standard_normal((16, 8)).astype(np.float32)


@pytest.fixture
def verify_mode():
    before = hook._STATE.verify
    hook._STATE.verify = True
    yield
    hook._STATE.verify = before


def test_a_module_pysdy_rejects_is_compiled_by_xla_alone_with_a_warning(mesh, monkeypatch):
    def rejecting(text, name, route, **options):
        raise pysdy.jax.PysdyExportError(f"pysdy's pipeline failed on '{name}':\n  loc: error: made up for the test")

    monkeypatch.setattr(hook, "hand_off", rejecting)
    x, w = _inputs()
    fallbacks_before = len(pysdy.jax.hook_summary().fallbacks)
    with pysdy.jax.pipeline_hook(), pytest.warns(pysdy.jax.PysdyFallbackWarning) as caught:
        result = _matmul(mesh, "_rejected")(x, w)
    message = str(caught[0].message)
    assert "'jit_matmul_rejected'" in message and "made up for the test" in message and "(route sdy)" in message
    assert pysdy.jax.compilations()[-1].route == hook.XLA_ALONE
    assert pysdy.jax.hook_summary().fallbacks[fallbacks_before:] == (message,)
    assert mismatch(np.asarray(result), np.tanh(x @ w)) is None


def test_a_hand_off_xla_cannot_compile_falls_back_to_jaxs_module_with_a_warning(monkeypatch):
    """The form jaxlib's compile path cannot take: the full export's `sdy.all_reduce` of an unreduced matmul (the
    meshes are gone when it is exported: "unknown mesh")."""
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)

    def partial_sums(a, b):
        sums = jnp.einsum("ij,jk->ik", a, b, out_sharding=P("x", None, unreduced={"y"}))
        return jax.sharding.reshard(sums, P("x", None)) * 2

    real = hook.hand_off

    def fully_exported(text, name, route, **options):
        with make_context():
            module = ir.Module.parse(text)
            run_pipeline(module, parse_pipeline("sdy-propagation-pipeline"))
            full = module.operation.get_asm(enable_debug_info=True)
        assert "sdy.all_reduce" in full
        return dataclasses.replace(real(text, name, route, **options), text=full)

    monkeypatch.setattr(hook, "hand_off", fully_exported)
    a = jax.device_put(np.ones((8, 16), np.float32), NamedSharding(mesh, P("x", "y")))
    b = jax.device_put(np.ones((16, 8), np.float32), NamedSharding(mesh, P("y", None)))
    with jax.set_mesh(mesh), pysdy.jax.pipeline_hook(), pytest.warns(pysdy.jax.PysdyFallbackWarning) as caught:
        result = jax.jit(partial_sums)(a, b)
    message = str(caught[0].message)
    assert message.startswith("XLA cannot compile pysdy's module for 'jit_partial_sums' on the sdy route (")
    assert "unknown mesh" in message
    assert pysdy.jax.compilations()[-1].route == hook.XLA_ALONE
    assert mismatch(np.asarray(result), np.full((8, 8), 32.0, np.float32)) is None


@pytest.mark.parametrize("route", ["sdy", "gspmd"])
def test_verify_mode_finds_jaxlib_propagating_as_pysdy(mesh, verify_mode, route):
    x, w = _inputs()
    differences_before = len(pysdy.jax.hook_summary().differences)
    with pysdy.jax.pipeline_hook(route=route), warnings.catch_warnings():
        warnings.simplefilter("error", pysdy.jax.PysdyWarning)
        _matmul(mesh, f"_verified_{route}")(x, w)
    assert len(pysdy.jax.hook_summary().differences) == differences_before


def test_verify_mode_names_the_op_and_source_line_of_a_difference(mesh, verify_mode, monkeypatch):
    """pysdy's result is altered behind the hook's back (the dot's result replicated); verify must catch it."""
    real = hook.hand_off

    def altered(text, name, route, **options):
        handed = real(text, name, route, **options)
        lines = handed.propagated_text.splitlines()
        index = next(i for i, line in enumerate(lines) if "stablehlo.dot_general" in line)
        lines[index] = lines[index].replace('[{"x"}, {}]', "[{}, {}]")
        return dataclasses.replace(handed, propagated_text="\n".join(lines))

    monkeypatch.setattr(hook, "hand_off", altered)
    x, w = _inputs()
    with pysdy.jax.pipeline_hook(), pytest.warns(pysdy.jax.PysdyVerifyWarning) as caught:
        _matmul(mesh, "_altered")(x, w)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1, messages
    assert "'jit_matmul_altered'" in messages[0] and "test_jax_hook_reports.py:" in messages[0]
    assert 'stablehlo.dot_general sdy.sharding: pysdy #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>' in messages[0]
    assert 'jaxlib\'s C++ #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>' in messages[0]


def test_install_reads_verify_and_route_from_the_environment(monkeypatch):
    monkeypatch.setenv("PYSDY_JAX_VERIFY", "1")
    pysdy.jax.install(route="gspmd")
    try:
        assert hook._STATE.verify and hook.ROUTE.value == "gspmd"
    finally:
        pysdy.jax.uninstall()
        jax.config.update(hook.ROUTE.name, "sdy")
        hook._STATE.verify = False
    with pytest.raises(ValueError, match="unknown route 'mhlo'"):
        pysdy.jax.install(route="mhlo")
    assert not pysdy.jax.is_installed()


def test_pass_warnings_are_logged_once_not_printed(mesh, capfd, caplog, monkeypatch):
    """`erf_inv` (e.g. in a Flax initializer) has no Shardy sharding rule: plain JAX says nothing about it. (Like
    Shardy, pysdy warns about the first unknown op of the process only: this test starts the process afresh.)"""
    monkeypatch.setattr(handoff, "_LOGGED", set())
    monkeypatch.setattr(registry, "_warned_about_unknown_op", False)
    sharding = NamedSharding(mesh, P("x", None))
    inverse = jax.jit(lambda a: jax.lax.erf_inv(a) * 2, in_shardings=sharding)
    values = np.linspace(-0.9, 0.9, 64, dtype=np.float32).reshape(8, 8)
    capfd.readouterr()
    with caplog.at_level(logging.INFO, logger="pysdy.jax"), pysdy.jax.pipeline_hook():
        inverse(values)
        jax.jit(lambda a: jax.lax.erf_inv(a) + 1, in_shardings=sharding)(values)
    assert "erf_inv" not in capfd.readouterr().err
    logged = [record.getMessage() for record in caplog.records if "chlo.erf_inv" in record.getMessage()]
    assert len(logged) == 1 and "unknown to SDY sharding rule registry" in logged[0], logged
