"""Which JAX the lowering hook supports, and a check that fails loudly when the patched seam is not where it expects.

The hook replaces `jax._src.compiler.compile_or_get_cached`, the one function
through which `jax.jit` (via `pxla._cached_compilation`) hands a lowered
StableHLO module and its `CompileOptions` to XLA. Its name, its parameters and
the way pxla calls it are private to JAX, so each is checked before patching;
the JAX lines pysdy supports are those of pysdy.versions (the seam is the same on each).
"""

from __future__ import annotations

import inspect
from typing import Callable

import jax
from jax._src import compiler, config
from jax._src.interpreters import pxla
from jax._src.lib import xla_client

from pysdy import versions

TESTED_JAX_VERSIONS = ", ".join(f"{row.name}.x (tested with {row.tested})" for row in versions.LINES)
_PIP_REQUIREMENT = f"jax>={versions.LINES[0].name},<{versions.LINES[-1].line[0]}.{versions.LINES[-1].line[1] + 1}"
_SEAM_PARAMETERS = ("backend", "computation", "devices", "compile_options", "host_callbacks", "executable_devices")


class IncompatibleJaxError(RuntimeError):
    """The installed JAX does not have the compile seam pysdy's hook patches."""


def _fail(reason: str) -> None:
    raise IncompatibleJaxError(
        f"pysdy's JAX lowering hook supports JAX {TESTED_JAX_VERSIONS}; with JAX {jax.__version__} {reason}, "
        f"so jax.jit would silently compile without pysdy. Install a supported JAX (pip install '{_PIP_REQUIREMENT}')."
    )


def jax_compile_seam() -> Callable | None:
    """JAX's own `compile_or_get_cached` (None if this JAX has none), read before anything patches it."""
    return getattr(compiler, "compile_or_get_cached", None)


def check_jax_compatibility(seam: Callable | None) -> None:
    """Raises IncompatibleJaxError unless this JAX calls XLA through `seam`, JAX's `compile_or_get_cached`."""
    if versions.line_of(jax.__version__) is None:
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
