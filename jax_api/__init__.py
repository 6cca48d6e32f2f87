"""`pysdy.jax`: JAX programs through pysdy's pipeline (a `jit` and a hook on JAX's compile step)."""

from pysdy.jax.compatibility import TESTED_JAX_VERSIONS, IncompatibleJaxError
from pysdy.jax.gspmd_export import GspmdExport, PysdyExportError, export_for_gspmd
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

__all__ = [
    "TESTED_JAX_VERSIONS",
    "GspmdExport",
    "IncompatibleJaxError",
    "PysdyCompilation",
    "PysdyExportError",
    "PysdyJitted",
    "PysdyLowered",
    "check_hook_compatibility",
    "compilations",
    "export_for_gspmd",
    "install",
    "is_installed",
    "jit",
    "pipeline_hook",
    "uninstall",
]
