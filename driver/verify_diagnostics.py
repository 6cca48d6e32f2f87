"""`-verify-diagnostics`: match emitted diagnostics against `expected-error {{...}}` comments.

Designators follow MLIR: `expected-<severity>` checks the same line,
`@+N` / `@-N` a relative line, `@N` an absolute one, `@above` / `@below` the
nearest line above / below that is not itself only an expectation comment.
An expectation matches a diagnostic of the same severity on that line whose
message contains the text between `{{` and `}}`.
"""

from __future__ import annotations

import dataclasses
import re

from pysdy.driver.diagnostics import Diagnostic, Position

_EXPECTATION = re.compile(
    r"expected-(error|warning|remark|note)(?:\s*@(above|below|[+-]?\d+))?\s*\{\{(.*?)\}\}"
)
_ONLY_EXPECTATIONS = re.compile(r"^\s*//\s*expected-")


@dataclasses.dataclass
class Expectation:
    severity: str
    text: str
    line: int
    written_at: Position
    matched: bool = False


def parse_expectations(text: str, file: str) -> list[Expectation]:
    lines = text.split("\n")
    expectations = []
    for index, line_text in enumerate(lines):
        line_number = index + 1
        for match in _EXPECTATION.finditer(line_text):
            severity, designator, message = match.groups()
            target = _target_line(designator, line_number, lines)
            written_at = Position(file, line_number, match.start() + 1)
            expectations.append(Expectation(severity, message, target, written_at))
    return expectations


def _target_line(designator: str | None, line_number: int, lines: list[str]) -> int:
    if designator is None:
        return line_number
    if designator in ("above", "below"):
        step = -1 if designator == "above" else 1
        candidate = line_number + step
        while 1 <= candidate <= len(lines) and _ONLY_EXPECTATIONS.match(lines[candidate - 1]):
            candidate += step
        return candidate
    if designator[0] in "+-":
        return line_number + int(designator)
    return int(designator)


def _flatten(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    flat = []
    for diagnostic in diagnostics:
        flat.append(diagnostic)
        flat.extend(_flatten(list(diagnostic.notes)))
    return flat


def verify(diagnostics: list[Diagnostic], expectations: list[Expectation], file: str) -> list[Diagnostic]:
    """The errors of the verification itself: unexpected diagnostics and unmet expectations."""
    problems = []
    for diagnostic in _flatten(diagnostics):
        found = False
        if diagnostic.position is not None and diagnostic.position.file == file:
            for expectation in expectations:
                if (
                    expectation.severity == diagnostic.severity
                    and expectation.line == diagnostic.position.line
                    and expectation.text in diagnostic.message
                ):
                    expectation.matched = True
                    found = True
        if not found:
            problems.append(
                Diagnostic(
                    "error",
                    f"unexpected {diagnostic.severity}: {diagnostic.message}",
                    diagnostic.position,
                    location=diagnostic.location,
                )
            )
    for expectation in expectations:
        if not expectation.matched:
            problems.append(
                Diagnostic(
                    "error",
                    f'expected {expectation.severity} "{expectation.text}" was not produced',
                    expectation.written_at,
                )
            )
    return problems
