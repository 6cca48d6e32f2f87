"""A pytest plugin that writes each test's outcome the moment it is known, so a run that dies (an abort, a segfault, a
timeout) still tells what it ran and which test it was in: `pytest -p outcome_recorder_plugin` with this folder on
PYTHONPATH and PYSDY_OUTCOMES_FILE naming a JSON-lines file.

Each line is `{"started": id}`, `{"test": id, "outcome": ..., "message": ...}` (outcome: passed, failed, error,
skipped, xfailed or xpassed; message: the failure's exception, its lines joined, or the skip's reason) or
`{"collect_error": ...}`.
PYSDY_DESELECT_FILE, when set, names a file of test ids, one a line, that the run leaves out.
"""

from __future__ import annotations

import json
import os

import pytest

OUTCOMES_FILE = "PYSDY_OUTCOMES_FILE"
# A message's length kept: an assertion can quote a whole compiled program.
MESSAGE_CHARACTERS = 1500
DESELECT_FILE = "PYSDY_DESELECT_FILE"


class _Recorder:
    """Appends one JSON line per event to the outcomes file, flushed at once."""

    def __init__(self, path: str) -> None:
        self.out = open(path, "a", encoding="utf-8")
        self.reports: dict[str, list[pytest.TestReport]] = {}

    def write(self, **record) -> None:
        self.out.write(json.dumps(record) + "\n")
        self.out.flush()

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        path = os.environ.get(DESELECT_FILE)
        if not path:
            return
        with open(path, encoding="utf-8") as file:
            left_out = set(file.read().split("\n")) - {""}
        config.hook.pytest_deselected(items=[item for item in items if item.nodeid in left_out])
        items[:] = [item for item in items if item.nodeid not in left_out]

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            errors = [line[1:].strip() for line in str(report.longrepr).splitlines() if line.startswith("E ")]
            self.write(collect_error=" ".join(errors) or _message(report))

    def pytest_runtest_logstart(self, nodeid: str) -> None:
        self.write(started=nodeid)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.reports.setdefault(report.nodeid, []).append(report)

    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        outcome, message = _test_outcome(self.reports.pop(nodeid, []))
        self.write(test=nodeid, outcome=outcome, message=message)


def _message(report: pytest.CollectReport | pytest.TestReport) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    text = crash.message if crash is not None else str(report.longrepr)
    return " ".join(text.split())[:MESSAGE_CHARACTERS]


def _test_outcome(reports: list[pytest.TestReport]) -> tuple[str, str]:
    """The test's outcome over its setup, call and teardown, as pytest's summary counts it."""
    for report in reports:
        if hasattr(report, "wasxfail"):
            return ("xfailed", report.wasxfail) if report.skipped else ("xpassed", report.wasxfail)
        if report.skipped:
            return "skipped", report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if report.failed:
            return ("failed" if report.when == "call" else "error"), _message(report)
    return "passed", ""


def pytest_configure(config: pytest.Config) -> None:
    path = os.environ.get(OUTCOMES_FILE)
    if path:
        config.pluginmanager.register(_Recorder(path), "pysdy_outcome_recorder")
