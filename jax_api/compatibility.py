"""Which JAX the lowering hook supports, and a check that fails loudly when the patched seam is not where it expects.

The hook replaces `jax._src.compiler.compile_or_get_cached`, the one function
through which `jax.jit` (via `pxla._cached_compilation`) hands a lowered
StableHLO module and its `CompileOptions` to XLA. Its name, its parameters and
the way pxla calls it are private to JAX, so each is checked before patching.
"""

from __future__ import annotations

import inspect
from typing import Callable

import jax
from jax._src import compiler, config
from jax._src.interpreters import pxla
from jax._src.lib import xla_client

TESTED_JAX_VERSIONS = "0.10.x (tested with 0.10.2)"
_SUPPORTED_MAJOR_MINOR = (0, 10)
_SEAM_PARAMETERS = ("backend", "computation", "devices", "compile_options", "host_callbacks", "executable_devices")


class IncompatibleJaxError(RuntimeError):
    """The installed JAX does not have the compile seam pysdy's hook patches."""


def _fail(reason: str) -> None:
    raise IncompatibleJaxError(
        f"pysdy's JAX lowering hook supports JAX {TESTED_JAX_VERSIONS}; with JAX {jax.__version__} {reason}, "
        "so jax.jit would silently compile without pysdy. Install a supported JAX (pip install 'jax>=0.10,<0.11')."
    )


def jax_compile_seam() -> Callable | None:
    """JAX's own `compile_or_get_cached` (None if this JAX has none), read before anything patches it."""
    return getattr(compiler, "compile_or_get_cached", None)


def check_jax_compatibility(seam: Callable | None) -> None:
    """Raises IncompatibleJaxError unless this JAX calls XLA through `seam`, JAX's `compile_or_get_cached`."""
    version = tuple(int(part) for part in jax.__version__.split(".")[:2])
    if version != _SUPPORTED_MAJOR_MINOR:
        _fail("the hook is untested")
    if seam is None:
        _fail("jax._src.compiler.compile_or_get_cached does not exist")
    parameters = tuple(inspect.signature(seam).parameters)[: len(_SEAM_PARAMETERS)]
    if parameters != _SEAM_PARAMETERS:
        _fail(f"compile_or_get_cached takes {parameters}, not {_SEAM_PARAMETERS}")
    if not hasattr(pxla, "_cached_compilation") or "compiler.compile_or_get_cached(" not in inspect.getsource(pxla):
        _fail("pxla no longer compiles through compiler.compile_or_get_cached")
    if "include_in_jit_key" not in inspect.signature(config.bool_state).parameters:
        _fail("config.bool_state cannot put the hook's state into the jit cache key")
    if not hasattr(xla_client.CompileOptions().executable_build_options, "use_shardy_partitioner"):
        _fail("XLA's ExecutableBuildOptions has no use_shardy_partitioner")
