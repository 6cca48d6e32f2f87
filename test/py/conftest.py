"""Shared pytest set-up: make test/py importable so tests can use the oracle helpers, and mark the known gaps of the
installed jax line (known_gaps.py) as strict xfails."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from known_gaps import KNOWN_GAPS  # noqa: E402
from pysdy import versions  # noqa: E402


def pytest_collection_modifyitems(items):
    line = versions.installed().name
    gaps = KNOWN_GAPS.get(line, {})
    for item in items:
        reason = gaps.get(item.nodeid)
        if reason is not None:
            item.add_marker(pytest.mark.xfail(reason=f"known gap on jax {line}: {reason}", strict=True))
