"""`@when(field, value)`: a test of one side of a difference between jax lines, run where the installed line has it.

test_versions.py checks that each side of every field of versions.py has such a test or a lit file gated on it.
"""

from __future__ import annotations

import pytest

from pysdy import versions


def when(field: str, value: object = True) -> pytest.MarkDecorator:
    """Runs the test only where the installed jax line's `field` is `value`."""
    actual = getattr(versions.installed(), field)
    return pytest.mark.skipif(
        actual != value, reason=f"checks the {field}={value!r} side; jax {versions.installed().name} has {actual!r}"
    )
