"""The lowering hook: under it, `jax.jit` hands its lowered StableHLO to pysdy's pipeline and XLA's GSPMD partitioner.

`install()`/`uninstall()` switch it on and off for the process,
`pipeline_hook()` for a `with` block (in the current thread). The hook wraps
`jax._src.compiler.compile_or_get_cached` (see compatibility.py); whether it
acts is a JAX config state that is part of JAX's jit and trace-context cache
keys, so executables compiled with and without pysdy never meet in JAX's
caches: switching the hook on recompiles once, switching it off again reuses
the plain executables.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import threading
from typing import Iterator

from jax._src import compiler, config
from jaxlib.mlir import ir

from pysdy.jax.compatibility import check_jax_compatibility, jax_compile_seam
from pysdy.jax.gspmd_export import export_for_gspmd

# The most recent compiles kept for `compilations()` (each holds two module texts).
KEPT_COMPILATIONS = 64

HOOK_ACTIVE = config.bool_state(
    "jax_pysdy_pipeline_hook",
    False,
    "Compile jax.jit programs through pysdy's sdy propagation and GSPMD export, then XLA's GSPMD partitioner.",
    include_in_jit_key=True,
    include_in_trace_context=True,
)


@dataclasses.dataclass(frozen=True)
class PysdyCompilation:
    """What the hook did for one XLA compile: JAX's module, pysdy's exported module, the partition count, and a note
    for each sharding dropped because jaxlib's XLA rejects it."""

    module_name: str
    jax_module: str
    exported_module: str
    num_partitions: int
    dropped_shardings: tuple[str, ...]


class _HookState:
    """The original seam, whether it is patched, and who needs it (a global install, open `with` blocks)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.original = jax_compile_seam()
        self.installed = False
        self.open_blocks = 0
        self.compilations: collections.deque[PysdyCompilation] = collections.deque(maxlen=KEPT_COMPILATIONS)

    def patch(self) -> None:
        compiler.compile_or_get_cached = _compile_through_pysdy

    def unpatch_if_unused(self) -> None:
        if not self.installed and self.open_blocks == 0:
            compiler.compile_or_get_cached = self.original


_STATE = _HookState()


def _module_name(module: ir.Module) -> str:
    return ir.StringAttr(module.operation.attributes["sym_name"]).value


def check_hook_compatibility() -> None:
    """Raises IncompatibleJaxError unless the seam the hook wraps is the one JAX compiles through."""
    check_jax_compatibility(_STATE.original)


def _compile_through_pysdy(backend, computation, devices, compile_options, *rest, **kwargs):
    """compile_or_get_cached, with pysdy's export in place of the module and GSPMD in place of Shardy when active."""
    if not HOOK_ACTIVE.value:
        return _STATE.original(backend, computation, devices, compile_options, *rest, **kwargs)
    name = _module_name(computation)
    jax_text = computation.operation.get_asm(enable_debug_info=True)
    export = export_for_gspmd(jax_text, name)
    exported = ir.Module.parse(export.text, context=computation.context)
    compile_options.executable_build_options.use_shardy_partitioner = False
    executable = _STATE.original(backend, exported, devices, compile_options, *rest, **kwargs)
    with _STATE.lock:
        _STATE.compilations.append(
            PysdyCompilation(name, jax_text, export.text, compile_options.num_partitions, export.dropped_shardings)
        )
    return executable


def install() -> None:
    """Makes every later `jax.jit` compile in this process go through pysdy, until `uninstall()`."""
    check_hook_compatibility()
    with _STATE.lock:
        _STATE.installed = True
        _STATE.patch()
    config.config.update(HOOK_ACTIVE.name, True)


def uninstall() -> None:
    """Undoes `install()`: plain `jax.jit` compiles with XLA alone again (open `pipeline_hook()` blocks keep theirs)."""
    config.config.update(HOOK_ACTIVE.name, False)
    with _STATE.lock:
        _STATE.installed = False
        _STATE.unpatch_if_unused()


def is_installed() -> bool:
    """Whether `install()` is in force for the process."""
    return _STATE.installed


@contextlib.contextmanager
def pipeline_hook() -> Iterator[None]:
    """Within the block (in this thread), `jax.jit` compiles through pysdy's pipeline and XLA's GSPMD partitioner."""
    check_hook_compatibility()
    with _STATE.lock:
        _STATE.open_blocks += 1
        _STATE.patch()
    try:
        with HOOK_ACTIVE(True):
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
