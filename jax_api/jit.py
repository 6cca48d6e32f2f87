"""`pysdy.jax.jit`: `jax.jit` whose compiles go through pysdy's pipeline (the hook's route) and XLA's partitioner."""

from __future__ import annotations

import functools
import os
from typing import Any, Callable

import jax
from jax._src import source_info_util, traceback_util

from pysdy.jax.handoff import hand_off
from pysdy.jax.hook import ROUTE, check_hook_compatibility, pipeline_hook

# JAX's source locations and tracebacks then point at the user's code, not at these wrappers.
traceback_util.register_exclusion(os.path.dirname(__file__))
source_info_util.register_exclusion(os.path.dirname(__file__))


class PysdyLowered:
    """A `jax.stages.Lowered` whose `compile()` goes through pysdy; `exported_text()` shows what XLA is given."""

    def __init__(self, lowered: jax.stages.Lowered, name: str):
        self._lowered = lowered
        self._name = name

    def as_text(self, *args: Any, **kwargs: Any) -> str:
        """JAX's lowered module (before pysdy), as `jax.stages.Lowered.as_text` prints it."""
        return self._lowered.as_text(*args, **kwargs)

    def exported_text(self) -> str:
        """The module pysdy hands XLA on the hook's route: JAX's lowering after pysdy's propagation (and, on the
        gspmd route, the GSPMD export)."""
        module = self._lowered.compiler_ir("stablehlo")
        return hand_off(module.operation.get_asm(enable_debug_info=True), self._name, ROUTE.value).text

    def compile(self, compiler_options: dict[str, Any] | None = None, **kwargs: Any) -> jax.stages.Compiled:
        """Compiles pysdy's hand-off with XLA; arguments as `jax.stages.Lowered.compile`.

        Compiler options are always passed (empty by default): without them JAX
        memoizes the executable on the lowering itself, outside the caches whose
        keys tell pysdy's executables from plain ones.
        """
        with pipeline_hook():
            return self._lowered.compile(compiler_options or {}, **kwargs)


class PysdyJitted:
    """A jitted function; calls, `lower` and the compiles behind them run under `pipeline_hook()`."""

    def __init__(self, fun: Callable, jit_kwargs: dict[str, Any]):
        self._jitted = jax.jit(fun, **jit_kwargs)
        self._name = getattr(fun, "__name__", type(fun).__name__)
        functools.update_wrapper(self, fun)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with pipeline_hook():
            return self._jitted(*args, **kwargs)

    def lower(self, *args: Any, **kwargs: Any) -> PysdyLowered:
        """Lowers like `jax.jit(...).lower`; the result compiles through pysdy."""
        with pipeline_hook():
            return PysdyLowered(self._jitted.lower(*args, **kwargs), self._name)


def jit(fun: Callable, /, **jit_kwargs: Any) -> PysdyJitted:
    """`jax.jit(fun, **jit_kwargs)` (any of its arguments: in_shardings, out_shardings, static_argnums, donate_argnums,
    ...) compiled through pysdy's propagation instead of XLA's own."""
    check_hook_compatibility()
    return PysdyJitted(fun, jit_kwargs)
