"""Where an op came from, read from its MLIR location: the user's `file.py:line`, JAX's op path, the module's line.

JAX writes (with `debug_info=True`) a name location around a call-site stack,
innermost frame first: `loc("jit(step)/dot_general"(callsite("f"("m.py":7:8)
at ...)))`; the first file position in the printed location is the user's
line. A module without locations has the position of each op in the `.mlir`
text itself, which is what `pysdy-explain --line` matches there.
"""

from __future__ import annotations

import re

from jaxlib.mlir import ir

_FILE_POSITION = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')
_LEADING_NAME = re.compile(r'^loc\("((?:[^"\\]|\\.)*)"(?=[()])')  # a name, not a file: `"f.py":3:1`


def source_line(location: ir.Location) -> tuple[str, int] | None:
    """The innermost `(file, line)` the location names, if any."""
    match = _FILE_POSITION.search(str(location))
    return None if match is None else (match.group(1), int(match.group(2)))


def source_text(location: ir.Location) -> str | None:
    """`file:line` of the innermost position, or None."""
    found = source_line(location)
    return None if found is None else f"{found[0]}:{found[1]}"


def leading_name(location: ir.Location) -> str | None:
    """The outermost name of a name location (JAX's op path, like `jit(step)/dot_general`), if it is one."""
    match = _LEADING_NAME.match(str(location))
    return None if match is None else match.group(1)
