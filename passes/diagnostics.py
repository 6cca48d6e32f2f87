"""Diagnostics Python passes cannot emit through MLIR's bindings: warnings, and errors with notes.

A pass calls `emit_warning(location, message)`. Inside `warnings_to(sink)`
(the driver installs one, so `-verify-diagnostics` sees warnings) the sink
receives them; elsewhere they are printed to stderr as
`file:line:col: warning: message`, like MLIR's own.

A pass that runs a nested pipeline gets its errors as an
`ir.MLIRError` (the bindings capture them), notes included, and can only
re-emit messages. It hands the error to `report_nested_errors` instead:
inside `nested_errors()` (see `pysdy.passes.pipeline.run_pass_manager`) the
error is kept whole, to be raised in place of the pass manager's own;
elsewhere its messages are re-emitted at their locations.
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


@contextlib.contextmanager
def warnings_dropped() -> Iterator[None]:
    """Within the block, warnings emitted on this thread are dropped, and warn-once warnings stay unspent:
    for work a pass does beyond what Shardy's does (e.g. reading every op's rule), which must warn as Shardy."""
    _local.dropping = getattr(_local, "dropping", 0) + 1
    try:
        yield
    finally:
        _local.dropping -= 1


def warnings_are_dropped() -> bool:
    return getattr(_local, "dropping", 0) > 0


def emit_warning(location: ir.Location, message: str) -> None:
    if warnings_are_dropped():
        return
    stack = _local.__dict__.get("sinks")
    if stack:
        stack[-1](location, message)
        return
    from pysdy.driver.diagnostics import position_of

    position = position_of(location)
    prefix = f"{position.file}:{position.line}:{position.col}: " if position else ""
    sys.stderr.write(f"{prefix}warning: {message}\n")


@contextlib.contextmanager
def nested_errors() -> Iterator[list[ir.MLIRError]]:
    """Within the block, errors passes on this thread report with `report_nested_errors` are appended to the list."""
    stack = _local.__dict__.setdefault("nested_errors", [])
    errors: list[ir.MLIRError] = []
    stack.append(errors)
    try:
        yield errors
    finally:
        stack.pop()


def report_nested_errors(error: ir.MLIRError) -> None:
    """Reports the errors of a nested pipeline run; the pass then fails."""
    stack = _local.__dict__.get("nested_errors")
    if stack:
        stack[-1].append(error)
        return
    for diagnostic in error.error_diagnostics:
        diagnostic.location.emit_error(diagnostic.message)
