"""Source buffers: splitting on `// -----` and parsing into a module under its file name."""

from __future__ import annotations

import dataclasses
import re

from jaxlib.mlir import ir

SPLIT_MARKER = "// -----"
_IMPLICIT_MODULE_PREFIX = "module {"


@dataclasses.dataclass(frozen=True)
class Chunk:
    """One part of a split source; `text` is padded with newlines so line numbers match the file."""

    text: str
    first_line: int


def split_source(text: str, marker: str = SPLIT_MARKER) -> list[Chunk]:
    """Splits at lines that start with `marker`, as mlir-opt's -split-input-file does."""
    pattern = re.compile(r"^" + re.escape(marker) + r".*$", re.MULTILINE)
    chunks, start, line = [], 0, 1
    for match in pattern.finditer(text):
        body = text[start : match.start()]
        chunks.append(Chunk("\n" * (line - 1) + body, line))
        line += body.count("\n") + match.group(0).count("\n") + 1
        start = match.end() + 1
    body = text[start:]
    chunks.append(Chunk("\n" * (line - 1) + body, line))
    return chunks


def parse_source(text: str, source_name: str, context: ir.Context) -> tuple[ir.OpView, int]:
    """Parses `text` as a module; several top-level ops are wrapped in an implicit `module`.

    Returns the module op and how far columns on line 1 moved (non-zero only
    when the text was wrapped). Raises ir.MLIRError with the parser's diagnostics.
    """
    try:
        op = ir.Operation.parse(text, source_name=source_name, context=context)
        if op.operation.name == "builtin.module":
            return op, 0
    except ir.MLIRError as error:
        if not any("single top-level operation" in d.message for d in error.error_diagnostics):
            raise
    wrapped = _IMPLICIT_MODULE_PREFIX + text + "\n}"
    op = ir.Operation.parse(wrapped, source_name=source_name, context=context)
    return op, len(_IMPLICIT_MODULE_PREFIX)
