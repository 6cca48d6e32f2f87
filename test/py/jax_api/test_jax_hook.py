"""The lowering hook: plain `jax.jit` under it compiles pysdy's propagated module with XLA's Shardy partitioner (or
pysdy's GSPMD export with GSPMD), JAX's caches keep pysdy and plain executables apart, install/uninstall patch and
restore the seam, what pysdy or a route cannot take falls back with a warning, and failures are clear errors."""

from __future__ import annotations

import dataclasses
import functools
import re
import warnings

import jax
import jax.numpy as jnp
import jax_corpus  # noqa: F401  (8 CPU devices, before the backend starts)
import numpy as np
import pytest
from jax._src import compiler
from jax._src import config as jax_config
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P
from numerics import collective_kinds

import pysdy.jax
from pysdy import versions
from pysdy.jax import hook
from pysdy.runtime.comparison import mismatch

_NEWEST = versions.LINES[-1].line
_LINE_AFTER_THE_NEWEST = f"{_NEWEST[0]}.{_NEWEST[1] + 1}.0"


@dataclasses.dataclass
class XlaCompile:
    """One module handed to XLA: whether pysdy propagated it (a StableHLO op carries an `sdy.sharding`, which JAX's
    lowering never writes), whether it had GSPMD shardings, and the partitioner asked for."""

    propagated: bool
    has_gspmd_shardings: bool
    shardy_partitioner: bool


@pytest.fixture
def xla_compiles(monkeypatch):
    """Every compile that reaches XLA through JAX's seam (with or without the hook), in order."""
    seen: list[XlaCompile] = []
    original = hook._STATE.original

    @functools.wraps(original)
    def recording(backend, computation, devices, compile_options, *rest, **kwargs):
        text = str(computation)
        build = compile_options.executable_build_options
        # pysdy hands each op's sharding over as constraints on its results (JAX's own test programs write none).
        propagated = "sdy.sharding_constraint" in text or re.search(r"= stablehlo\.[a-z_]+ .*\{.*sdy\.sharding = ", text) is not None
        seen.append(XlaCompile(propagated, "mhlo.sharding" in text, build.use_shardy_partitioner))
        return original(backend, computation, devices, compile_options, *rest, **kwargs)

    monkeypatch.setattr(hook._STATE, "original", recording)
    monkeypatch.setattr(compiler, "compile_or_get_cached", recording)
    yield seen
    assert not hook.is_installed() and hook._STATE.open_blocks == 0, "a test left the hook on"


@pytest.fixture(scope="module")
def mesh():
    return jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)


def _has_sdy(module_text: str) -> bool:
    return any(form in module_text for form in ("sdy.sharding", "sdy.mesh", "sdy.manual_computation"))


def _inputs():
    rng = np.random.default_rng(1)
    return rng.standard_normal((8, 16)).astype(np.float32), rng.standard_normal((16, 8)).astype(np.float32)


def _sharded_matmul(mesh, name_suffix=""):
    """A fresh jitted matmul contracting over the sharded "y" (so it needs an all-reduce)."""

    def matmul(x, w):
        return jnp.tanh(x @ w)

    matmul.__name__ += name_suffix
    shardings = (NamedSharding(mesh, P("x", "y")), NamedSharding(mesh, P("y", None)))
    return jax.jit(matmul, in_shardings=shardings)


def test_plain_jit_under_the_hook_compiles_pysdys_propagation_with_shardy(mesh, xla_compiles):
    x, w = _inputs()
    matmul = _sharded_matmul(mesh)
    before = pysdy.jax.hook_summary().compiles
    with pysdy.jax.pipeline_hook():
        result = matmul(x, w)
    assert xla_compiles == [XlaCompile(propagated=True, has_gspmd_shardings=False, shardy_partitioner=True)]
    record = pysdy.jax.compilations()[-1]
    assert pysdy.jax.hook_summary().compiles == before + 1 and record.num_partitions == 8 and record.route == "sdy"
    assert "sdy.sharding" in record.jax_module and "sdy.reshard" not in record.exported_module
    assert mismatch(np.asarray(result), np.tanh(x @ w)) is None
    assert result.sharding.is_equivalent_to(NamedSharding(mesh, P("x", None)), 2)


def test_plain_jit_on_the_gspmd_route_compiles_pysdys_export_with_gspmd(mesh, xla_compiles):
    x, w = _inputs()
    with pysdy.jax.pipeline_hook(route="gspmd"):
        result = _sharded_matmul(mesh, "_gspmd")(x, w)
    assert xla_compiles == [XlaCompile(propagated=False, has_gspmd_shardings=True, shardy_partitioner=False)]
    record = pysdy.jax.compilations()[-1]
    assert record.route == "gspmd" and not _has_sdy(record.exported_module)
    assert mismatch(np.asarray(result), np.tanh(x @ w)) is None


def test_the_hook_never_returns_a_plain_executable_nor_leaks_its_own(mesh, xla_compiles):
    x, w = _inputs()
    matmul = _sharded_matmul(mesh)
    matmul(x, w)
    assert [c.propagated for c in xla_compiles] == [False]
    with pysdy.jax.pipeline_hook():
        matmul(x, w)  # compiled before without pysdy: must compile again, through pysdy
    assert [c.propagated for c in xla_compiles] == [False, True]
    matmul(x, w)
    with pysdy.jax.pipeline_hook():
        matmul(x, w)
    assert len(xla_compiles) == 2, "each side reuses its own executable"

    fresh = _sharded_matmul(mesh, "_fresh")
    with pysdy.jax.pipeline_hook():
        fresh(x, w)
    fresh(x, w)  # compiled first through pysdy: plain jit must compile its own
    assert [c.propagated for c in xla_compiles[2:]] == [True, False]
    with pysdy.jax.pipeline_hook(route="gspmd"):
        fresh(x, w)  # another route: another executable
    assert [c.shardy_partitioner for c in xla_compiles[4:]] == [False]


def test_a_lowering_compiles_through_the_hook_unless_jax_memoized_its_executable(mesh, xla_compiles):
    """JAX 0.10.2 memoizes `Lowered.compile()` (without compiler options) on the lowering object, outside the keyed
    caches: a plain `Lowered` compiled once keeps that executable under the hook. With compiler options (as
    `pysdy.jax.jit(...).lower(...).compile()` always passes) each compile is keyed by whether the hook is on."""
    x, w = _inputs()
    lowered = _sharded_matmul(mesh, "_lowered").lower(x, w)
    lowered.compile()
    with pysdy.jax.pipeline_hook():
        lowered.compile()
        assert [c.propagated for c in xla_compiles] == [False], "the memoized plain executable"
        lowered.compile(compiler_options={})
    lowered.compile(compiler_options={})
    assert [c.propagated for c in xla_compiles] == [False, True]


def test_install_patches_the_seam_until_uninstall(mesh, xla_compiles):
    x, w = _inputs()
    pysdy.jax.install()
    try:
        assert pysdy.jax.is_installed() and compiler.compile_or_get_cached is hook._compile_through_pysdy
        with pysdy.jax.pipeline_hook():
            pass
        assert compiler.compile_or_get_cached is hook._compile_through_pysdy, "a block must not undo install()"
        _sharded_matmul(mesh, "_installed")(x, w)
    finally:
        pysdy.jax.uninstall()
    assert compiler.compile_or_get_cached is hook._STATE.original
    _sharded_matmul(mesh, "_uninstalled")(x, w)
    assert [c.propagated for c in xla_compiles] == [True, False]


def test_uninstall_ends_verify_mode(mesh, monkeypatch):
    compared = []
    monkeypatch.setattr(hook, "differences_from_jaxlib", lambda name, *rest: compared.append(name) or [])
    x, w = _inputs()
    pysdy.jax.install(verify=True)
    try:
        _sharded_matmul(mesh, "_verified")(x, w)
    finally:
        pysdy.jax.uninstall()
    with pysdy.jax.pipeline_hook():
        _sharded_matmul(mesh, "_after_verify")(x, w)
    assert compared == ["jit_matmul_verified"]


def test_uninstall_gives_back_the_route_install_replaced(mesh, xla_compiles):
    # Before, the route stayed gspmd for the rest of the process: a later `pipeline_hook()` took it.
    x, w = _inputs()
    pysdy.jax.install(route="gspmd")
    try:
        _sharded_matmul(mesh, "_installed_gspmd")(x, w)
    finally:
        pysdy.jax.uninstall()
    assert hook.ROUTE.value == "sdy"
    with pysdy.jax.pipeline_hook():
        _sharded_matmul(mesh, "_after_gspmd_install")(x, w)
    assert [(c.has_gspmd_shardings, c.shardy_partitioner) for c in xla_compiles] == [(True, False), (False, True)]


def test_pysdy_jit_is_jax_jit_through_pysdy(mesh, xla_compiles):
    x, w = _inputs()
    shardings = (NamedSharding(mesh, P("x", "y")), NamedSharding(mesh, P("y", None)))
    out_sharding = NamedSharding(mesh, P(None, "y"))
    scaled = pysdy.jax.jit(
        lambda x, w, scale: jnp.tanh(x @ w) * scale, in_shardings=shardings, out_shardings=out_sharding,
        static_argnums=2,
    )
    result = scaled(x, w, 3.0)
    assert mismatch(np.asarray(result), np.tanh(x @ w) * 3.0) is None
    assert result.sharding == out_sharding
    lowered = scaled.lower(x, w, 3.0)
    assert "sdy.sharding" in lowered.as_text()
    exported = lowered.exported_text()
    assert "sdy.sharding" in exported and "sdy.reshard" not in exported
    compiled = lowered.compile()
    assert "all-reduce" in collective_kinds(compiled.as_text())
    assert [c.propagated for c in xla_compiles] == [True]


def test_matching_shardings_need_no_collectives(mesh):
    sharding = NamedSharding(mesh, P("x", "y"))
    elementwise = pysdy.jax.jit(
        lambda a, b: jnp.sin(a) * b + 1, in_shardings=(sharding, sharding), out_shardings=sharding
    )
    a = np.ones((8, 16), np.float32)
    assert collective_kinds(elementwise.lower(a, a).compile().as_text()) == set()


def test_a_module_jax_lowered_for_gspmd_is_imported_first(mesh, xla_compiles):
    x, w = _inputs()
    shardings = (NamedSharding(mesh, P("x", "y")), NamedSharding(mesh, P("y", None)))
    with jax_config.use_shardy_partitioner(False):
        result = pysdy.jax.jit(lambda x, w: jnp.tanh(x @ w), in_shardings=shardings)(x, w)
    record = pysdy.jax.compilations()[-1]
    assert "mhlo.sharding" in record.jax_module and not _has_sdy(record.jax_module)
    assert mismatch(np.asarray(result), np.tanh(x @ w)) is None
    assert xla_compiles == [XlaCompile(propagated=True, has_gspmd_shardings=False, shardy_partitioner=True)]


def _partial_sums_on_an_explicit_mesh():
    """An explicit-mesh matmul left `unreduced` along "y", then resharded (all-reduced) and doubled."""
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)

    def partial_sums(a, b):
        sums = jnp.einsum("ij,jk->ik", a, b, out_sharding=P("x", None, unreduced={"y"}))
        return jax.sharding.reshard(sums, P("x", None)) * 2

    a = jax.device_put(np.ones((8, 16), np.float32), NamedSharding(mesh, P("x", "y")))
    b = jax.device_put(np.ones((16, 8), np.float32), NamedSharding(mesh, P("y", None)))
    return mesh, partial_sums, a, b


def test_unreduced_axes_compile_on_the_sdy_route():
    mesh, partial_sums, a, b = _partial_sums_on_an_explicit_mesh()
    with jax.set_mesh(mesh), warnings.catch_warnings():
        warnings.simplefilter("error", pysdy.jax.PysdyWarning)
        result = pysdy.jax.jit(partial_sums)(a, b)
    assert pysdy.jax.compilations()[-1].route == "sdy"
    assert mismatch(np.asarray(result), np.full((8, 8), 32.0, np.float32)) is None


def test_the_gspmd_route_sends_unreduced_axes_to_the_sdy_route_with_a_warning():
    mesh, partial_sums, a, b = _partial_sums_on_an_explicit_mesh()
    with jax.set_mesh(mesh), pysdy.jax.pipeline_hook(route="gspmd"), pytest.warns(pysdy.jax.PysdyFallbackWarning) as caught:
        result = jax.jit(partial_sums)(a, b)
    assert [str(w.message) for w in caught] == [
        "'jit_partial_sums' has unreduced axes, which the gspmd route cannot carry: it takes the sdy route"
    ]
    assert pysdy.jax.compilations()[-1].route == "sdy"
    assert mismatch(np.asarray(result), np.full((8, 8), 32.0, np.float32)) is None


# A move of two axes of different sizes to unreduced, which XLA's export would misplace: pysdy's export refuses it.
_REFUSED_BY_THE_EXPORT = """module @m attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = sdy.sharded_to_unreduced [{"x", "y"}, {}] %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"x", "y"}> : tensor<8x16xf32>
    %1 = sdy.all_reduce {"x", "y"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
}"""


def test_what_pysdys_export_refuses_is_a_clear_error():
    """Called directly, the GSPMD export takes unreduced all-reduces (the hook still sends them to the sdy route),
    and what it refuses is an error naming the op."""
    mesh, partial_sums, a, b = _partial_sums_on_an_explicit_mesh()
    with jax.set_mesh(mesh):
        text = jax.jit(partial_sums).lower(a, b).as_text(debug_info=True)
    assert "@SPMDFullToShardShape" in pysdy.jax.export_for_gspmd(text, "jit_partial_sums").text
    with pytest.raises(pysdy.jax.PysdyExportError) as failure:
        pysdy.jax.export_for_gspmd(_REFUSED_BY_THE_EXPORT, "m")
    message = str(failure.value)
    assert message.startswith("pysdy's pipeline failed on 'm':")
    assert "pysdy cannot export 'sdy.sharded_to_unreduced' of axes of different sizes" in message


@pytest.mark.parametrize(
    "break_jax, reason",
    [
        (lambda patch: patch.setattr(jax, "__version__", _LINE_AFTER_THE_NEWEST), "the hook is untested"),
        (lambda patch: patch.setattr(hook._STATE, "original", None), "compile_or_get_cached does not exist"),
        (
            lambda patch: patch.setattr(hook._STATE, "original", lambda module, options: None),
            "compile_or_get_cached takes ('module', 'options')",
        ),
    ],
    ids=["version", "no_seam", "other_signature"],
)
def test_an_incompatible_jax_fails_loudly(monkeypatch, break_jax, reason):
    break_jax(monkeypatch)
    for start in (lambda: pysdy.jax.jit(jnp.sin), pysdy.jax.install, lambda: pysdy.jax.pipeline_hook().__enter__()):
        with pytest.raises(pysdy.jax.IncompatibleJaxError, match="silently compile without pysdy") as failure:
            start()
        assert reason in str(failure.value)
    assert not hook.is_installed() and hook._STATE.open_blocks == 0
