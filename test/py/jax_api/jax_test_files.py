"""Runs JAX's own test files (the reference copy for the installed jax line) in a child pytest on 8 CPU devices, with
or without pysdy's hook, and reads back each test's outcome, the run's time and the hook's summary.

A child that dies (an abort, a segfault) is named by the test it was in, and the file runs on in a new child
without the tests already done and the one that killed it, so one abort does not hide the rest of the file.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import time

from outcome_recorder_plugin import DESELECT_FILE, OUTCOMES_FILE
from pysdy_hook_plugin import SUMMARY_FILE

from pysdy import versions

REFERENCE = "/work/shared/reference/jax-tests"
# The reference folder written for each jax line: its own release where there is one, else the newest before it.
FOLDER = {"0.10": "v0.10.2", "0.11": "v0.11.0", "0.12": "v0.11.0"}
FILES = (
    "array_test.py",
    "custom_partitioning_sharding_rule_test.py",
    "custom_partitioning_test.py",
    "layout_test.py",
    "linalg_sharding_test.py",
    "memories_test.py",
    "pjit_test.py",
    "shard_alike_test.py",
    "shard_map_test.py",
)
# How many times a file is started again after a child died in it, before its run gives up.
MAX_DEATHS = 10


@dataclasses.dataclass(frozen=True)
class RecordedOutcome:
    """How one test ended (passed, failed, error, skipped, xfailed, xpassed), and its exception or skip reason."""

    outcome: str
    message: str


@dataclasses.dataclass(frozen=True)
class FileRun:
    """One file's run, over all the children it took."""

    outcomes: dict[str, RecordedOutcome]
    seconds: float
    # Each child that died: "<test id>: <how>", the test id empty where it died outside a test.
    deaths: tuple[str, ...]
    # Why the file did not import (a collection error), or None.
    import_error: str | None
    # The hooked children's `pysdy.jax.hook_summary()` fields, added up (None for a plain run, or if none finished).
    hook_summary: dict | None

    def count(self, *outcomes: str) -> int:
        return sum(outcome.outcome in outcomes for outcome in self.outcomes.values())


def lost_passes(plain: FileRun, hooked: FileRun) -> list[str]:
    """The tests that pass in the plain run and not in the hooked one (failed, skipped, died or not run there)."""
    not_run = RecordedOutcome("not run", "")
    return [
        test_id
        for test_id, outcome in plain.outcomes.items()
        if outcome.outcome == "passed" and hooked.outcomes.get(test_id, not_run).outcome != "passed"
    ]


def reference_folder() -> str:
    return os.path.join(REFERENCE, FOLDER[versions.installed().name])


def run_test_file(
    file_name: str,
    work_dir: str,
    *,
    hooked: bool,
    test_ids: tuple[str, ...] = (),
    verify: bool = False,
    timeout_seconds: float = 3600,
    folder: str | None = None,
    route: str = "sdy",
) -> FileRun:
    """Runs `file_name` (or only `test_ids` of it) from `folder`, by default reference_folder(), hooked on `route`;
    child logs and records go to work_dir."""
    folder = folder or reference_folder()
    os.makedirs(work_dir, exist_ok=True)
    stem = os.path.join(work_dir, f"{file_name.removesuffix('.py')}.{f'hooked-{route}' if hooked else 'plain'}")
    deselect_path = f"{stem}.deselect"
    open(deselect_path, "w").close()
    targets = [os.path.join(folder, test_id) for test_id in test_ids or (file_name,)]
    outcomes: dict[str, RecordedOutcome] = {}
    deaths: list[str] = []
    summaries: list[dict] = []
    seconds = 0.0
    while True:
        attempt = f"{stem}.{len(deaths)}"
        start = time.monotonic()
        returncode = _run_child(folder, targets, attempt, deselect_path, hooked, verify, timeout_seconds, route)
        seconds += time.monotonic() - start
        records = _read_records(f"{attempt}.outcomes.jsonl")
        collect_errors = [record["collect_error"] for record in records if "collect_error" in record]
        if collect_errors and not outcomes:
            return FileRun({}, seconds, (), collect_errors[0], None)
        finished = {
            record["test"]: RecordedOutcome(record["outcome"], record["message"])
            for record in records
            if "test" in record
        }
        outcomes.update(finished)
        if os.path.exists(f"{attempt}.summary.json"):
            with open(f"{attempt}.summary.json", encoding="utf-8") as file:
                summaries.append(json.load(file))
        if returncode is not None and returncode >= 0:
            break
        started = [record["started"] for record in records if "started" in record]
        unfinished = [test_id for test_id in started if test_id not in finished]
        killer = unfinished[-1] if unfinished else ""
        how = f"timed out after {timeout_seconds:.0f} s" if returncode is None else f"killed by signal {-returncode}"
        deaths.append(f"{killer}: {how}")
        if returncode is None or not killer or len(deaths) > MAX_DEATHS:
            break
        with open(deselect_path, "a", encoding="utf-8") as file:
            file.write("".join(f"{test_id}\n" for test_id in [*finished, killer]))
    return FileRun(outcomes, seconds, tuple(deaths), None, _added_up(summaries) if hooked and summaries else None)


def _run_child(folder, targets, attempt, deselect_path, hooked, verify, timeout_seconds, route) -> int | None:
    """The child's return code (negative: killed by that signal), or None if it ran out of time and was killed."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("PYSDY_", "JAX_PYSDY"))}
    environment.update(
        JAX_NUM_CPU_DEVICES="8",
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONPATH=os.pathsep.join([os.path.dirname(__file__), os.environ.get("PYTHONPATH", "")]),
        **{OUTCOMES_FILE: f"{attempt}.outcomes.jsonl", DESELECT_FILE: deselect_path},
    )
    plugins = ["-p", "outcome_recorder_plugin"]
    if hooked:
        plugins += ["-p", "pysdy_hook_plugin"]
        environment[SUMMARY_FILE] = f"{attempt}.summary.json"
        environment["PYSDY_JAX_ROUTE"] = route
        if verify:
            environment["PYSDY_JAX_VERIFY"] = "1"
    command = [sys.executable, "-m", "pytest", *plugins, "-p", "no:cacheprovider", "-q", "-rA"]
    command += ["-c", os.devnull, "--rootdir", folder, *targets]
    with open(f"{attempt}.log", "w", encoding="utf-8") as log:
        child = subprocess.Popen(command, cwd=os.path.dirname(attempt), env=environment, stdout=log, stderr=log)
        try:
            return child.wait(timeout=timeout_seconds)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            return None


def _read_records(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as file:
        return [json.loads(line) for line in file if line.endswith("\n")]


def _added_up(summaries: list[dict]) -> dict:
    """The fields of several children's hook summaries together: counts added, tuples joined."""
    return {
        key: sum(summary[key] for summary in summaries)
        if isinstance(summaries[0][key], int)
        else [entry for summary in summaries for entry in summary[key]]
        for key in summaries[0]
    }
