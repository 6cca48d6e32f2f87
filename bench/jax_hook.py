"""Times JAX's own test files run whole without and with pysdy's hook, and counts their outcomes each way.

Usage (from the repo root):

    .venv/bin/python bench/jax_hook.py                               # every file, 3 runs each way
    .venv/bin/python bench/jax_hook.py linalg_sharding_test.py --runs 5
    .venv/bin/python bench/jax_hook.py --runs 1 --json outcomes.json   # also every test's outcome each way
    .venv/bin/python bench/jax_hook.py --stacks 8,32,128 --runs 3      # compile time of transformer stacks instead

`--stacks` times compiles of bench/transformer_stack.py's stacks in
this process instead of test files: see bench/hook_on_stacks.py.

Each file (the reference copy of JAX's tests for the installed jax line, see
test/py/jax_api/jax_test_files.py) runs in a child pytest on 8 CPU devices,
plainly and with `-p pysdy_hook_plugin`, the two taking turns run by run so a
drift of the machine's speed reaches both. A run's time is the wall time of its
whole child processes, imports included; the table shows medians. Outcomes are
counted from the first run each way: pass, skip (skipped, xfailed), fail
(failed, error, xpassed), and `lost`, the tests that pass plainly and not
hooked. A child that dies is named below the table, and the file runs on
without that test (test/py/jax_api/jax_test_files.py). `ms/compile` is the
hooked run's extra time over the plain run, divided by the compiles the hook
counted (`pysdy.jax.hook_summary().compiles`). Progress goes to a terminal's
stderr only.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "py", "jax_api"))

from jax_test_files import FILES, FileRun, lost_passes, reference_folder, run_test_file  # noqa: E402
import progress  # noqa: E402  (bench/, the script's own folder)

import jax  # noqa: E402

_PASS = ("passed",)
_SKIP = ("skipped", "xfailed")
_FAIL = ("failed", "error", "xpassed")


def _counts(run: FileRun) -> str:
    return f"{run.count(*_PASS)}/{run.count(*_SKIP)}/{run.count(*_FAIL)}"


def _measure(file_name: str, arguments: argparse.Namespace, work_dir: str):
    """The file's plain and hooked runs, taking turns (no hooked run where the file does not import)."""
    plain_runs: list[FileRun] = []
    hooked_runs: list[FileRun] = []
    for index in range(arguments.runs):
        for hooked, runs in ((False, plain_runs), (True, hooked_runs)):
            progress.show(f"{file_name}: run {index + 1} {'hooked' if hooked else 'plain'} ...")
            runs.append(
                run_test_file(
                    file_name,
                    os.path.join(work_dir, str(index)),
                    hooked=hooked,
                    verify=arguments.verify,
                    timeout_seconds=arguments.timeout,
                )
            )
            if plain_runs[0].import_error is not None:
                return plain_runs, hooked_runs
    return plain_runs, hooked_runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", default=FILES, help="test files to run (default: all)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each file each way (default 3)")
    parser.add_argument("--json", help="write every test's outcome, each way, to this file")
    parser.add_argument("--verify", action="store_true", help="hooked runs in verify mode (PYSDY_JAX_VERIFY=1)")
    parser.add_argument("--timeout", type=float, default=3600, help="bound on one child, seconds (default 3600)")
    parser.add_argument("--stacks", metavar="LAYERS", help="comma-separated stack sizes: time their compiles instead")
    arguments = parser.parse_args()
    if arguments.stacks:
        import hook_on_stacks

        jax.config.update("jax_num_cpu_devices", 8)  # before JAX creates its CPU backend
        hook_on_stacks.run([int(layers) for layers in arguments.stacks.split(",")], arguments.runs)
        return
    mode = ", hooked in verify mode" if arguments.verify else ""
    runs = f"median of {arguments.runs} run(s) each way"
    print(f"jax {jax.__version__}, JAX's tests from {reference_folder()}, {runs}{mode}")
    rows, notes, outcomes = [], [], {}
    with tempfile.TemporaryDirectory() as work_dir:
        for file_name in arguments.files:
            plain_runs, hooked_runs = _measure(file_name, arguments, os.path.join(work_dir, file_name))
            progress.clear()
            plain = plain_runs[0]
            if plain.import_error is not None:
                rows.append([file_name, "does not import", "", "", "", "", "", "", ""])
                notes.append(f"{file_name}: {plain.import_error}")
                continue
            hooked = hooked_runs[0]
            plain_seconds = statistics.median(run.seconds for run in plain_runs)
            hooked_seconds = statistics.median(run.seconds for run in hooked_runs)
            compiles = hooked.hook_summary["compiles"] if hooked.hook_summary else None
            rows.append(
                [
                    file_name,
                    _counts(plain),
                    _counts(hooked),
                    str(len(lost_passes(plain, hooked))),
                    f"{plain_seconds:.1f}",
                    f"{hooked_seconds:.1f}",
                    f"{hooked_seconds / plain_seconds:.2f}",
                    "n/a" if compiles is None else str(compiles),
                    "n/a" if not compiles else f"{1000 * (hooked_seconds - plain_seconds) / compiles:.1f}",
                ]
            )
            for way, run in (("plain", plain), ("hooked", hooked)):
                notes += [f"{file_name} {way}: child died in {death}" for death in run.deaths]
            for key in ("fallbacks", "differences"):
                notes += [f"{file_name} {key[:-1]}: {entry}" for entry in (hooked.hook_summary or {}).get(key, [])]
            outcomes[file_name] = {
                "plain": {test_id: dataclasses.astuple(outcome) for test_id, outcome in plain.outcomes.items()},
                "hooked": {test_id: dataclasses.astuple(outcome) for test_id, outcome in hooked.outcomes.items()},
                "plain_deaths": plain.deaths,
                "hooked_deaths": hooked.deaths,
                "hook_summary": hooked.hook_summary,
                "plain_seconds": [run.seconds for run in plain_runs],
                "hooked_seconds": [run.seconds for run in hooked_runs],
            }
    header = ["file", "plain p/s/f", "hooked p/s/f", "lost", "plain s", "hooked s", "ratio", "compiles", "ms/compile"]
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(len(header))]
    for row in [header, *rows]:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:])]
        print("  ".join(cells))
    for note in notes:
        print(note)
    if arguments.json:
        with open(arguments.json, "w", encoding="utf-8") as out:
            json.dump(outcomes, out, indent=1)


if __name__ == "__main__":
    main()
