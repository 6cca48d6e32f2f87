"""How the command-line tools report a pysdy bug: one line saying so, the traceback only on request."""

from __future__ import annotations

import os
import sys
import traceback

from pysdy.driver.diagnostics import INTERNAL_ERROR_HINT


def report_internal_error(tool: str, error: Exception) -> int:
    """Writes the bug report for `error` to stderr; returns the exit status (1)."""
    if os.environ.get("PYSDY_TRACEBACK"):
        traceback.print_exc()
    sys.stderr.write(
        f"{tool}: internal error: {type(error).__name__}: {error}\n({INTERNAL_ERROR_HINT})\n"
    )
    return 1
