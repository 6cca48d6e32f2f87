"""Prints versions.py's table of what differs between the jax lines as Markdown, for the README."""

from __future__ import annotations

import dataclasses
import inspect
import re

from pysdy import versions

_FIELD = re.compile(r"^\s+(\w+): ")
_COMMENT = re.compile(r"^\s+# ?(.*)$")


def field_descriptions() -> dict[str, str]:
    """Each JaxLine field's comment (the `#` lines just above it), joined into one sentence; a field without its own
    comment shares the one above the fields before it."""
    descriptions: dict[str, str] = {}
    comment: list[str] = []
    comment_ended = False  # a field came after the comment: the next comment line starts a new one
    for line in inspect.getsource(versions.JaxLine).splitlines():
        if match := _COMMENT.match(line):
            text = match.group(1)
            if comment_ended or text.startswith("---"):
                comment, comment_ended = [], False
            if not text.startswith("---"):
                comment.append(text)
        elif match := _FIELD.match(line):
            descriptions[match.group(1)] = " ".join(comment)
            comment_ended = True
    return descriptions


def _cell(value: object) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return f"`{value}`"


def markdown_table() -> str:
    rows = versions.LINES
    header = "| difference | field | " + " | ".join(f"jax {row.tested}" for row in rows) + " |"
    lines = [header, "|---|---|" + "---|" * len(rows)]
    descriptions = field_descriptions()
    for field in dataclasses.fields(versions.JaxLine):
        if field.name in ("line", "tested"):
            continue
        description = descriptions.get(field.name, "").replace("|", "\\|")
        cells = " | ".join(_cell(getattr(row, field.name)) for row in rows)
        lines.append(f"| {description} | `{field.name}` | {cells} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown_table(), end="")
