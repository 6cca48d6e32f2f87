"""Where an op came from, read from its MLIR location: the user's `file.py:line`, JAX's op path, the module's line.

JAX writes (with `debug_info=True`) a name location around a call-site stack,
innermost frame first: `loc("jit(step)/dot_general"(callsite("f"("m.py":7:8)
at ...)))`; the first file position outside installed packages (a library's
frames, Flax's layers say, come first) is the user's line. A module without locations has the position of each op in the `.mlir`
text itself, which is what `pysdy-explain --line` matches there.
"""

from __future__ import annotations

import re

from jaxlib.mlir import ir

_FILE_POSITION = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')
_LEADING_NAME = re.compile(r'^loc\("((?:[^"\\]|\\.)*)"(?=[()])')  # a name, not a file: `"f.py":3:1`


def source_line(location: ir.Location) -> tuple[str, int] | None:
    """The innermost `(file, line)` the location names outside installed packages (a Flax layer's frames are in
    site-packages; the user's code calling it is not), else the innermost; None if it names no file."""
    positions = [(m.group(1), int(m.group(2))) for m in _FILE_POSITION.finditer(str(location))]
    if not positions:
        return None
    return next((p for p in positions if not _installed(p[0])), positions[0])


def _installed(path: str) -> bool:
    return "/site-packages/" in path or "/dist-packages/" in path


def source_text(location: ir.Location) -> str | None:
    """`file:line` of the innermost position, or None."""
    found = source_line(location)
    return None if found is None else f"{found[0]}:{found[1]}"


def leading_name(location: ir.Location) -> str | None:
    """The outermost name of a name location (JAX's op path, like `jit(step)/dot_general`), if it is one."""
    match = _LEADING_NAME.match(str(location))
    return None if match is None else match.group(1)
