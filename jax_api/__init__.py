"""`pysdy.jax`: JAX programs through pysdy's pipeline (a `jit` and a hook on JAX's compile step)."""

from pysdy.jax.compatibility import TESTED_JAX_VERSIONS, IncompatibleJaxError
from pysdy.jax.explain import explain
from pysdy.jax.handoff import HandOff, PysdyExportError, export_for_gspmd, hand_off
from pysdy.jax.hook import (
    PysdyCompilation,
    check_hook_compatibility,
    compilations,
    install,
    is_installed,
    pipeline_hook,
    uninstall,
)
from pysdy.jax.jit import PysdyJitted, PysdyLowered, jit
from pysdy.jax.reporting import HookSummary, PysdyFallbackWarning, PysdyVerifyWarning, PysdyWarning, hook_summary

__all__ = [
    "TESTED_JAX_VERSIONS",
    "HandOff",
    "HookSummary",
    "IncompatibleJaxError",
    "PysdyCompilation",
    "PysdyExportError",
    "PysdyFallbackWarning",
    "PysdyJitted",
    "PysdyLowered",
    "PysdyVerifyWarning",
    "PysdyWarning",
    "check_hook_compatibility",
    "compilations",
    "explain",
    "export_for_gspmd",
    "hand_off",
    "hook_summary",
    "install",
    "is_installed",
    "jit",
    "pipeline_hook",
    "uninstall",
]
