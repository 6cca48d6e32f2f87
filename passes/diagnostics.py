"""Warnings from Python passes, which MLIR's Python bindings cannot emit (they emit only errors).

A pass calls `emit_warning(location, message)`. Inside `warnings_to(sink)`
(the driver installs one, so `-verify-diagnostics` sees warnings) the sink
receives them; elsewhere they are printed to stderr as
`file:line:col: warning: message`, like MLIR's own.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from typing import Callable, Iterator

from jaxlib.mlir import ir

WarningSink = Callable[[ir.Location, str], None]

_local = threading.local()


@contextlib.contextmanager
def warnings_to(sink: WarningSink) -> Iterator[None]:
    """Within the block, warnings emitted on this thread go to `sink`."""
    stack = _local.__dict__.setdefault("sinks", [])
    stack.append(sink)
    try:
        yield
    finally:
        stack.pop()


def emit_warning(location: ir.Location, message: str) -> None:
    stack = _local.__dict__.get("sinks")
    if stack:
        stack[-1](location, message)
        return
    from pysdy.driver.diagnostics import position_of

    position = position_of(location)
    prefix = f"{position.file}:{position.line}:{position.col}: " if position else ""
    sys.stderr.write(f"{prefix}warning: {message}\n")
