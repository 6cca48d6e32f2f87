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


def shown_name(name: str) -> str:
    """A file name or argument as UTF-8 text: bytes that were not UTF-8 (which Python keeps as lone
    surrogates) spelled `\\xNN`, as MLIR prints them."""
    return name.encode(errors="surrogateescape").decode(errors="backslashreplace")


def decode_source(data: bytes, source_name: str) -> str:
    """The buffer as text. MLIR's Python bindings take only UTF-8 text, so any other byte is a located error."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        col = error.start - data.rfind(b"\n", 0, error.start)
        message = f"invalid UTF-8 byte 0x{data[error.start]:02x}: the input must be UTF-8 text"
        raise SourceError(Diagnostic("error", message, Position(source_name, line, col))) from None


def chunk_position(chunk: Chunk, source_name: str) -> Position:
    """Where the chunk's text starts: its first character that is not white space."""
    body = chunk.text.lstrip()
    if not body:
        return Position(source_name, chunk.first_line, 1)
    before = chunk.text[: len(chunk.text) - len(body)]
    return Position(source_name, before.count("\n") + 1, len(before) - before.rfind("\n"))


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


class NotAModuleError(Exception):
    """The top-level op is no module where one is required; the error was emitted on the op."""


def parse_source(text: str, source_name: str, context: ir.Context, implicit_module: bool = True) -> ir.OpView:
    """Parses `text` as a module; several top-level ops are wrapped in an implicit `module`.

    Without `implicit_module` (`-no-implicit-module`), the text must hold a
    single top-level op, a `builtin.module` (pysdy's pipelines run on one): any
    other op is reported on its location and NotAModuleError raised.

    `module {` goes on the last of the blank lines a chunk is padded with; text
    without them gets it on line 1, and the locations the parser gave line 1's
    ops and block arguments are moved back by its width. The implicit module
    takes the location of its first op, so a diagnostic about the module points
    into this text (into its own chunk, for a split source). Raises ir.MLIRError
    with the parser's diagnostics.
    """
    if not implicit_module:
        op = ir.Operation.parse(text, source_name=source_name, context=context)
        if op.operation.name == "builtin.module":
            return op
        op.location.emit_error(
            f"-no-implicit-module: the top-level op must be a 'builtin.module', found '{op.operation.name}'"
        )
        raise NotAModuleError()
    try:
        op = ir.Operation.parse(text, source_name=source_name, context=context)
        if op.operation.name == "builtin.module":
            return op
    except ir.MLIRError as error:
        if not any("single top-level operation" in d.message for d in error.error_diagnostics):
            raise
    padding = len(text) - len(text.lstrip("\n"))
    if padding:
        wrapped = text[: padding - 1] + _IMPLICIT_MODULE_PREFIX + text[padding - 1 :] + "\n}"
    else:
        wrapped = _IMPLICIT_MODULE_PREFIX + text + "\n}"
    op = ir.Operation.parse(wrapped, source_name=source_name, context=context)
    if not padding:
        _unshift_line_1(op, source_name, len(_IMPLICIT_MODULE_PREFIX))
    body = op.regions[0].blocks[0].operations
    if len(body):
        op.location = body[0].location
    return op


def _unshift_line_1(module: ir.OpView, source_name: str, width: int) -> None:
    """Moves every parser location on line 1 of `source_name` after the wrapper `width` columns left."""
    line_1 = str(ir.Location.file(source_name, 1, 1))[: -len("1)")]

    def unshifted(location: ir.Location) -> ir.Location | None:
        text = str(location)
        column = text[len(line_1) : -1]
        if text.startswith(line_1) and text.endswith(")") and column.isdigit() and int(column) > width:
            return ir.Location.file(source_name, 1, int(column) - width)
        return None  # not on line 1, or the wrapper itself

    def visit(op):
        location = unshifted(op.location)
        if location is not None:
            op.location = location
        for region in op.regions:
            for block in region.blocks:
                for argument in block.arguments:
                    location = unshifted(argument.location)
                    if location is not None:
                        argument.set_location(location)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
