"""MLIR diagnostics as `file:line:col: error: message`, collected from a context instead of printed."""

from __future__ import annotations

import dataclasses
import os
import re
import traceback

from jaxlib.mlir import ir

_FILE_LOC = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')

_SEVERITY_NAMES = {
    ir.DiagnosticSeverity.ERROR: "error",
    ir.DiagnosticSeverity.WARNING: "warning",
    ir.DiagnosticSeverity.REMARK: "remark",
    ir.DiagnosticSeverity.NOTE: "note",
}


INTERNAL_ERROR_HINT = "this is a bug in pysdy; set PYSDY_TRACEBACK=1 to see where"


@dataclasses.dataclass(frozen=True)
class Position:
    file: str
    line: int
    col: int


@dataclasses.dataclass(frozen=True)
class Diagnostic:
    severity: str
    message: str
    position: Position | None
    notes: tuple[Diagnostic, ...] = ()
    location: str = "<unknown>"  # what is shown without a position: the location as MLIR prints it

    @classmethod
    def from_mlir(cls, diagnostic) -> Diagnostic:
        location = str(diagnostic.location)
        return cls(
            _SEVERITY_NAMES.get(diagnostic.severity, "error"),
            diagnostic.message,
            position_of(diagnostic.location),
            tuple(cls.from_mlir(n) for n in diagnostic.notes),
            "<unknown>" if location == "loc(unknown)" else location,
        )


def position_of(location) -> Position | None:
    """The first file:line:col inside a location (name, call-site and fused locations included)."""
    match = _FILE_LOC.search(str(location))
    if match is None:
        return None
    return Position(_unescaped(match.group(1)), int(match.group(2)), int(match.group(3)))


def _unescaped(name: str) -> str:
    """A file name as MLIR prints it in a location (`\\\\`, `\\"` and `\\XX` for other bytes) as it was."""
    data = bytearray()
    i = 0
    while i < len(name):
        if name[i] == "\\" and name[i + 1 : i + 2] in ("\\", '"'):
            data += name[i + 1].encode()
            i += 2
        elif name[i] == "\\" and re.fullmatch(r"[0-9A-Fa-f]{2}", name[i + 1 : i + 3]):
            data.append(int(name[i + 1 : i + 3], 16))
            i += 3
        else:
            data += name[i].encode()
            i += 1
    return data.decode(errors="backslashreplace")


def internal_error(error: Exception, position: Position | None) -> Diagnostic:
    """A pysdy bug met at `position`, as an error saying so (its traceback on stderr only on request)."""
    if os.environ.get("PYSDY_TRACEBACK"):
        traceback.print_exception(error)
    return Diagnostic("error", f"internal error: {type(error).__name__}: {error} ({INTERNAL_ERROR_HINT})", position)


def format_diagnostic(diagnostic: Diagnostic, source_lines: dict[str, list[str]] | None = None) -> str:
    """`file:line:col: severity: message`, the source line and a caret, then its notes likewise.

    A location without a file position (`loc("name")`, written so in the input) is shown as MLIR prints it.
    """
    out = []
    position = diagnostic.position
    prefix = f"{position.file}:{position.line}:{position.col}: " if position else f"{diagnostic.location}: "
    out.append(f"{prefix}{diagnostic.severity}: {diagnostic.message}")
    lines = (source_lines or {}).get(position.file) if position else None
    if lines and 1 <= position.line <= len(lines):
        text = lines[position.line - 1].rstrip("\r\n")
        out.append(text)
        out.append(" " * (position.col - 1) + "^")
    for note in diagnostic.notes:
        out.append(format_diagnostic(note, source_lines))
    return "\n".join(out)


class DiagnosticCollector:
    """Within `with collector:`, every diagnostic the context emits is recorded, not printed."""

    def __init__(self, context: ir.Context):
        self.context = context
        self.diagnostics: list[Diagnostic] = []
        self._handle = None

    def record(self, diagnostic) -> bool:
        self.diagnostics.append(Diagnostic.from_mlir(diagnostic))
        return True

    def record_warning(self, location: ir.Location, message: str) -> None:
        """The sink for warnings Python passes emit (see pysdy.passes.diagnostics)."""
        self.diagnostics.append(Diagnostic("warning", message, position_of(location)))

    def add_from_error(self, error: ir.MLIRError) -> None:
        """Adds the diagnostics an MLIRError carries that the handler did not already see."""
        for diagnostic in error.error_diagnostics:
            converted = Diagnostic.from_mlir(diagnostic)
            if converted not in self.diagnostics:
                self.diagnostics.append(converted)

    def __enter__(self) -> DiagnosticCollector:
        self._handle = self.context.attach_diagnostic_handler(self.record)
        return self

    def __exit__(self, *exc) -> None:
        self._handle.detach()

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)
