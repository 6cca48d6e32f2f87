"""The CPU libraries jaxlib's custom calls run on, set up before XLA compiles a module that calls them.

JAX registers its LAPACK custom call targets and loads the LAPACK functions they call when it lowers a program
that uses them (`jax.numpy.linalg`, `jax.lax.linalg`). A module handed to pysdy-run arrives already lowered, so
nothing did that in this process: XLA would compile the calls and crash the process running them.
"""

from __future__ import annotations

import functools
import re

import numpy as np

_LAPACK_CALL = re.compile(r'(custom_call @|call_target_name = ")lapack_')


def prepare_libraries_for(text: str) -> None:
    """Sets up the libraries the custom calls of module `text` need (each once per process)."""
    if _LAPACK_CALL.search(text):
        _prepare_lapack()


@functools.cache
def _prepare_lapack() -> None:
    from jax._src.lax import linalg  # noqa: F401  (importing it registers jaxlib's LAPACK custom call targets)
    from jaxlib import lapack

    lapack.prepare_lapack_call("potrf_ffi", np.dtype(np.float32))  # loads the LAPACK functions the targets call
