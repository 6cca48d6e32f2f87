"""The lowering hook: under it, `jax.jit` hands its lowered StableHLO to pysdy's pipeline, then to XLA.

`install()`/`uninstall()` switch it on and off for the process,
`pipeline_hook()` for a `with` block (in the current thread). The hook wraps
`jax._src.compiler.compile_or_get_cached` (see compatibility.py); whether it
acts, and its route, are JAX config states that are part of JAX's jit and
trace-context cache keys, so executables compiled with and without pysdy (or
on another route) never meet in JAX's caches: switching the hook on
recompiles once, switching it off again reuses the plain executables.

Routes (handoff.py): "sdy" (default) hands XLA's Shardy partitioner pysdy's
propagated module, as JAX hands it its own; "gspmd" hands XLA's GSPMD
partitioner pysdy's GSPMD export; "pysdy" partitions the module with pysdy's
own passes and hands XLA the per-device program in one fully manual
computation (XLA partitions nothing). A module the gspmd route cannot carry
(gspmd_route_limits.py) takes the sdy route; a module pysdy rejects, or
whose hand-off XLA cannot compile, is compiled by XLA alone as JAX lowered
it. Each such fallback is a `PysdyFallbackWarning`, never silent. In verify
mode every hooked compile is checked against jaxlib's C++ Shardy (verify.py).
Environment: `JAX_PYSDY_PIPELINE_HOOK=1` installs the hook at import,
`PYSDY_JAX_ROUTE` and `PYSDY_JAX_VERIFY=1` set `install()`'s defaults.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import os
import threading
from typing import Iterator

from jax._src import compiler, config
from jax._src.lib import xla_client
from jaxlib.mlir import ir

from pysdy.jax.compatibility import check_jax_compatibility, jax_compile_seam
from pysdy.jax.gspmd_route_limits import gspmd_route_limit
from pysdy.jax.handoff import HandOff, PysdyExportError, hand_off
from pysdy.jax.reporting import count_compile, report_differences, report_fallback
from pysdy.jax.verify import differences_from_jaxlib
from pysdy.runtime.pysdy_passes import PARTITIONING_ROUTE, ROUTES

# The most recent compiles kept for `compilations()` (each holds two module texts).
KEPT_COMPILATIONS = 64
# The route XLA compiled on when pysdy handed it nothing: JAX's own module, XLA's own partitioner.
XLA_ALONE = "xla"

HOOK_ACTIVE = config.bool_state(
    "jax_pysdy_pipeline_hook",
    False,
    "Compile jax.jit programs through pysdy's sdy propagation before XLA partitions them.",
    include_in_jit_key=True,
    include_in_trace_context=True,
)
HOOK_ROUTES = ROUTES + (PARTITIONING_ROUTE,)
ROUTE = config.enum_state(
    "jax_pysdy_pipeline_route",
    list(HOOK_ROUTES),
    os.environ.get("PYSDY_JAX_ROUTE", "sdy"),
    "How pysdy hands XLA a module: 'sdy' propagated for XLA's Shardy partitioner, 'gspmd' for its GSPMD one, "
    "'pysdy' partitioned by pysdy (XLA partitions nothing).",
    include_in_jit_key=True,
    include_in_trace_context=True,
)


@dataclasses.dataclass(frozen=True)
class PysdyCompilation:
    """What the hook did for one XLA compile: JAX's module, the module XLA got, the route it took ("sdy", "gspmd",
    or "xla" when XLA compiled JAX's module alone), the partition count, and a note per sharding changed for XLA."""

    module_name: str
    jax_module: str
    exported_module: str
    route: str
    num_partitions: int
    notes: tuple[str, ...]


class _HookState:
    """The original seam, whether it is patched, who needs it (a global install, open `with` blocks), and verify mode."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.original = jax_compile_seam()
        self.installed = False
        self.open_blocks = 0
        self.verify = False
        self.route_before_install: str | None = None  # the route `install(route=...)` replaced, back at uninstall
        self.compilations: collections.deque[PysdyCompilation] = collections.deque(maxlen=KEPT_COMPILATIONS)

    def patch(self) -> None:
        compiler.compile_or_get_cached = _compile_through_pysdy

    def unpatch_if_unused(self) -> None:
        if not self.installed and self.open_blocks == 0:
            compiler.compile_or_get_cached = self.original

    def record(self, compilation: PysdyCompilation) -> None:
        with self.lock:
            self.compilations.append(compilation)


_STATE = _HookState()


def _module_name(module: ir.Module) -> str:
    return ir.StringAttr(module.operation.attributes["sym_name"]).value


def check_hook_compatibility() -> None:
    """Raises IncompatibleJaxError unless the seam the hook wraps is the one JAX compiles through."""
    check_jax_compatibility(_STATE.original)


def _hand_off_or_none(jax_text: str, name: str) -> HandOff | None:
    """pysdy's hand-off of JAX's module on the configured route (or the sdy route where the gspmd route cannot carry
    the module), or None, reported, where pysdy rejects the module."""
    route = ROUTE.value
    if route == "gspmd":
        feature = gspmd_route_limit(jax_text)
        if feature is not None:
            report_fallback(f"'{name}' has {feature}, which the gspmd route cannot carry: it takes the sdy route")
            route = "sdy"
    try:
        handed = hand_off(jax_text, name, route, keep_propagated_text=_STATE.verify)
    except PysdyExportError as error:
        report_fallback(f"{error}\nXLA compiles '{name}' as JAX lowered it, without pysdy (route {route})")
        return None
    if _STATE.verify:
        report_differences(differences_from_jaxlib(name, jax_text, handed.pipelines, handed.propagated_text))
    return handed


def _compile_through_pysdy(backend, computation, devices, compile_options, *rest, **kwargs):
    """compile_or_get_cached, given pysdy's hand-off in place of JAX's module when the hook is active."""
    original = _STATE.original
    if not HOOK_ACTIVE.value:
        return original(backend, computation, devices, compile_options, *rest, **kwargs)
    count_compile()
    name = _module_name(computation)
    jax_text = computation.operation.get_asm(enable_debug_info=True)
    partitions = compile_options.num_partitions
    handed = _hand_off_or_none(jax_text, name)
    xla_failure = None
    if handed is not None:
        build = compile_options.executable_build_options
        jax_chose_shardy = build.use_shardy_partitioner
        build.use_shardy_partitioner = handed.route in ("sdy", PARTITIONING_ROUTE)
        module = ir.Module.parse(handed.text, context=computation.context)
        try:
            executable = original(backend, module, devices, compile_options, *rest, **kwargs)
        except xla_client.XlaRuntimeError as error:
            build.use_shardy_partitioner = jax_chose_shardy
            xla_failure = str(error).splitlines()[0] if str(error) else type(error).__name__
        else:
            _STATE.record(PysdyCompilation(name, jax_text, handed.text, handed.route, partitions, handed.notes))
            return executable
    # Where JAX's own module fails too, that is the program's error, raised here with no fallback to report.
    executable = original(backend, computation, devices, compile_options, *rest, **kwargs)
    if xla_failure is not None:
        report_fallback(
            f"XLA cannot compile pysdy's module for '{name}' on the {handed.route} route ({xla_failure}): "
            "XLA compiled it as JAX lowered it, without pysdy"
        )
    _STATE.record(PysdyCompilation(name, jax_text, jax_text, XLA_ALONE, partitions, ()))
    return executable


def _verify_by_default() -> bool:
    return os.environ.get("PYSDY_JAX_VERIFY", "") not in ("", "0")


def install(route: str | None = None, verify: bool | None = None) -> None:
    """Makes every later `jax.jit` compile in this process go through pysdy, until `uninstall()`.

    `route`: "sdy" (XLA's Shardy partitioner, the default), "gspmd", or "pysdy" (pysdy partitions; XLA gets its
    per-device program in one fully manual computation and partitions nothing); default
    `PYSDY_JAX_ROUTE`, else "sdy". `verify`: also run jaxlib's C++ Shardy on
    each module and warn (`PysdyVerifyWarning`) at every difference; default
    `PYSDY_JAX_VERIFY`. Executables JAX has already cached are not compiled again.
    """
    check_hook_compatibility()
    if route is not None and route not in HOOK_ROUTES:
        raise ValueError(f"unknown route '{route}': use one of {', '.join(HOOK_ROUTES)}")
    with _STATE.lock:
        _STATE.installed = True
        _STATE.verify = _verify_by_default() if verify is None else verify
        _STATE.patch()
    if route is not None:
        if _STATE.route_before_install is None:
            _STATE.route_before_install = ROUTE.value
        config.config.update(ROUTE.name, route)
    config.config.update(HOOK_ACTIVE.name, True)


def uninstall() -> None:
    """Undoes `install()`: plain `jax.jit` compiles with XLA alone again (open `pipeline_hook()` blocks keep theirs),
    and the route is the one before `install(route=...)`."""
    config.config.update(HOOK_ACTIVE.name, False)
    if _STATE.route_before_install is not None:
        config.config.update(ROUTE.name, _STATE.route_before_install)
        _STATE.route_before_install = None
    with _STATE.lock:
        _STATE.installed = False
        _STATE.verify = False  # verify mode was install()'s: open `pipeline_hook()` blocks compile without it
        _STATE.unpatch_if_unused()


def is_installed() -> bool:
    """Whether `install()` is in force for the process."""
    return _STATE.installed


@contextlib.contextmanager
def pipeline_hook(route: str | None = None) -> Iterator[None]:
    """Within the block (in this thread), `jax.jit` compiles through pysdy's pipeline, on `route` if given."""
    check_hook_compatibility()
    if route is not None and route not in HOOK_ROUTES:
        raise ValueError(f"unknown route '{route}': use one of {', '.join(HOOK_ROUTES)}")
    with _STATE.lock:
        _STATE.open_blocks += 1
        _STATE.patch()
    try:
        with HOOK_ACTIVE(True), ROUTE(route or ROUTE.value):
            yield
    finally:
        with _STATE.lock:
            _STATE.open_blocks -= 1
            _STATE.unpatch_if_unused()


def compilations() -> list[PysdyCompilation]:
    """The hook's most recent compiles in this process (at most KEPT_COMPILATIONS), oldest first."""
    with _STATE.lock:
        return list(_STATE.compilations)


if HOOK_ACTIVE.value:  # JAX_PYSDY_PIPELINE_HOOK=1 in the environment: the state alone would not patch the seam.
    install()
