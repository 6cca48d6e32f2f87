"""Source buffers: splitting on `// -----` and parsing into a module under its file name."""

from __future__ import annotations

import dataclasses
import re

from jaxlib.mlir import ir

from pysdy.driver.diagnostics import Diagnostic, Position

SPLIT_MARKER = "// -----"
_IMPLICIT_MODULE_PREFIX = "module {"


@dataclasses.dataclass(frozen=True)
class Chunk:
    """One part of a split source; `text` is padded with newlines so line numbers match the file."""

    text: str
    first_line: int


class SourceError(Exception):
    """A source buffer pysdy cannot read as text; `diagnostic` says where."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def decode_source(data: bytes, source_name: str) -> str:
    """The buffer as text. MLIR's Python bindings take only UTF-8 text, so any other byte is a located error."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        col = error.start - data.rfind(b"\n", 0, error.start)
        message = f"invalid UTF-8 byte 0x{data[error.start]:02x}: the input must be UTF-8 text"
        raise SourceError(Diagnostic("error", message, Position(source_name, line, col))) from None


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
