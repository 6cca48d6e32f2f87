"""The table of jax lines (versions.py): the installed line's row, its lit features, and the README's copy."""

from __future__ import annotations

import dataclasses
import pathlib
import re

import pytest
from jaxlib import version as jaxlib_version

from pysdy import versions
from pysdy.tools.version_table import markdown_table

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"
TESTS = pathlib.Path(__file__).resolve().parents[1]


def test_the_installed_row_is_the_installed_jaxlibs_line():
    row = versions.installed()
    assert jaxlib_version._version.startswith(row.name + ".")


def test_an_unknown_line_is_refused(monkeypatch):
    versions.installed.cache_clear()
    monkeypatch.setattr(versions, "installed_jaxlib_version", lambda: "0.9.1")
    try:
        with pytest.raises(versions.UnsupportedJaxlibError, match="jaxlib 0.9.1 is installed"):
            versions.installed()
    finally:
        versions.installed.cache_clear()


def test_lines_are_ordered_and_named_by_their_tested_release():
    assert [row.line for row in versions.LINES] == sorted(row.line for row in versions.LINES)
    assert all(row.tested.startswith(row.name + ".") for row in versions.LINES)


def test_lit_features_are_the_true_flags_and_the_other_values():
    row = versions.LINES[-1]
    features = row.lit_features()
    assert "verify_unreduced_axes" in features
    assert not any(feature.startswith(("line", "tested")) for feature in features)
    assert f"func_call_reshards_unreduced={row.func_call_reshards_unreduced}" in features
    assert "verify_unreduced_axes" not in versions.LINES[0].lit_features()


def test_the_readme_shows_the_table_of_versions_py():
    assert markdown_table() in README.read_text()


def test_version_text_names_the_line(capsys):
    assert f"jax/jaxlib {versions.installed().name} line" in versions.version_text()


_LIT_GATE = re.compile(r"^//\s*(REQUIRES|UNSUPPORTED):(.*)$", re.MULTILINE)
_WHEN = re.compile(r'\bwhen\(\s*"(\w+)"\s*(?:,\s*(True|False|"[^"]*"))?\s*\)')


def _tested_sides() -> set[tuple[str, str]]:
    """(field, value) pairs that a lit file is gated on (`REQUIRES: f`, `!f`, `f=value`; `UNSUPPORTED: f`) or a
    pytest is marked with (`@when("f", value)`); values as lit spells them."""
    sides = set()
    for path in (TESTS / "lit").rglob("*.mlir"):
        for kind, expression in _LIT_GATE.findall(path.read_text()):
            for token in re.findall(r"!?[\w.=-]+", expression):
                name = token.lstrip("!")
                if "=" in name:
                    sides.add(tuple(name.split("=", 1)))
                else:
                    sides.add((name, str((kind == "REQUIRES") != token.startswith("!"))))
    for path in (TESTS / "py").rglob("*.py"):
        for field, value in _WHEN.findall(path.read_text()):
            sides.add((field, (value or "True").strip('"')))
    return sides


def test_every_side_of_every_difference_has_a_test():
    """Each value a field of versions.py takes on some line is what a lit file or a pytest runs on."""
    tested = _tested_sides()
    untested = [
        f"{field.name}={value}"
        for field in dataclasses.fields(versions.JaxLine)
        if field.name not in ("line", "tested")
        for value in sorted({str(getattr(row, field.name)) for row in versions.LINES})
        if (field.name, value) not in tested
    ]
    assert not untested, f"no test gated on these sides: {untested}"
