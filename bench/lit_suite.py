"""Times the lit suite run through pysdy-opt against the same suite run through jaxlib's C++ passes.

Usage (from the repo root):

    .venv/bin/python bench/lit_suite.py                        # all of test/lit, median of 3 runs each way
    .venv/bin/python bench/lit_suite.py --runs 1 propagation   # one directory of the suite

The same lit, filecheck and `-j` run the suite twice: once as it is (the RUN
lines' `pysdy-opt` is pysdy's), once with a directory first on PATH whose
`pysdy-opt` execs bench/cpp_sdy_opt.py, which runs every pass as jaxlib's C++
and reads, splits and prints as pysdy-opt does. Each way gets a lit site
config in a temporary directory that loads the suite's own lit.cfg.py and then
puts its directory first on PATH (the suite's config puts the venv's bin
first), so the test outputs land there too. The two ways take turns run by
run. A test whose expectation is pysdy's own (a pysdy diagnostic, `--help`, an
`xla-sdy-*` pass jaxlib does not bundle) fails the C++ way: the counts show
them, and every test failing one way only is named, with why where its log
says (a process killed by a signal, a flag the stand-in refuses). `start-up` is one
process reading an empty module with no pass (median of 5), the per-process
price every RUN line pays. The slowest tests each way are medians of lit's own
per-test times (`-o results.json`).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import progress

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)  # the venv's lit, filecheck and pysdy-opt
STAND_IN = os.path.join(REPO, "bench", "cpp_sdy_opt.py")
WAYS = ("pysdy", "C++")

_SITE_CONFIG = """\
import os
lit_config.load_config(config, {suite_config!r})
config.environment["PATH"] = {first!r} + os.pathsep + config.environment["PATH"]
config.test_exec_root = {exec_root!r}
"""


def write_stand_in(directory: str) -> None:
    """A `pysdy-opt` in `directory` that runs the C++ stand-in."""
    path = os.path.join(directory, "pysdy-opt")
    with open(path, "w") as script:
        script.write(f"#!/bin/sh\nexec '{sys.executable}' '{STAND_IN}' \"$@\"\n")
    os.chmod(path, 0o755)


def write_site_config(exec_root: str, suite: str, first_on_path: str) -> None:
    """A lit suite in `exec_root` that is `suite` with `first_on_path` first on its tests' PATH."""
    text = _SITE_CONFIG.format(
        suite_config=os.path.join(suite, "lit.cfg.py"), first=first_on_path, exec_root=exec_root
    )
    with open(os.path.join(exec_root, "lit.site.cfg.py"), "w") as config:
        config.write(text)


def run_lit(exec_root: str, paths: list[str], jobs: int) -> dict:
    """One lit run over `paths` (inside the suite): wall seconds and each test's (code, elapsed)."""
    results = os.path.join(exec_root, "results.json")
    targets = [os.path.join(exec_root, path) for path in paths] or [exec_root]
    start = time.perf_counter()
    subprocess.run(
        [os.path.join(BIN, "lit"), "-j", str(jobs), "-o", results, *targets],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    seconds = time.perf_counter() - start
    if not os.path.exists(results):
        raise SystemExit(f"lit wrote no results for {' '.join(paths) or 'the suite'}: paths are relative to the suite")
    with open(results) as f:
        tests = json.load(f)["tests"]
    return {"seconds": seconds, "tests": {t["name"]: (t["code"], t["elapsed"], failure_kind(t)) for t in tests}}


def failure_kind(test: dict) -> str:
    """Why a failed test failed, where its log says: a process killed by a signal, or a flag the stand-in refused."""
    if test["code"] != "FAIL":
        return ""
    crash = re.search(r"exit status: -(\d+)", test.get("output", ""))
    if crash:
        return f"killed by signal {crash.group(1)}"
    return "a flag the stand-in refuses" if "cpp-sdy-opt: " in test.get("output", "") else ""


def start_up_seconds(command: list[str], runs: int = 5) -> float:
    """Median wall time of `command` reading an empty module from stdin with no pass."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command + ["-"], input=b"", stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(suite: str, paths: list[str], runs: int, jobs: int, work_dir: str) -> dict:
    """Every run of each way, the ways taking turns; and each way's `pysdy-opt` start-up."""
    stand_in_dir = os.path.join(work_dir, "bin")
    os.makedirs(stand_in_dir)
    write_stand_in(stand_in_dir)
    first_on_path = {"pysdy": BIN, "C++": stand_in_dir}
    roots = {}
    for way in WAYS:
        roots[way] = os.path.join(work_dir, "pysdy" if way == "pysdy" else "cpp")
        os.makedirs(roots[way])
        write_site_config(roots[way], suite, first_on_path[way])
    measured = {way: [] for way in WAYS}
    for index in range(runs):
        for way in WAYS:
            progress.show(f"lit run {index + 1} of {runs}, the {way} way ...")
            measured[way].append(run_lit(roots[way], paths, jobs))
    progress.clear()
    start_up = {way: start_up_seconds([os.path.join(first_on_path[way], "pysdy-opt")]) for way in WAYS}
    return {"suite": suite, "runs": measured, "start_up": start_up}


def pysdy_opt_processes(suite: str, test_names) -> int:
    """How many times the RUN lines of these tests (lit's `suite :: path` names) start pysdy-opt."""
    count = 0
    for name in test_names:
        with open(os.path.join(suite, name.split(" :: ", 1)[1])) as test:
            count += sum(line.count("pysdy-opt") for line in test if "RUN:" in line)
    return count


def summary(runs: list[dict]) -> dict:
    """Median wall time, the first run's outcome counts, and each test's median time."""
    codes = {name: code for name, (code, _, _) in runs[0]["tests"].items()}
    kinds = {name: kind for name, (_, _, kind) in runs[0]["tests"].items()}
    elapsed = {name: statistics.median(run["tests"][name][1] for run in runs) for name in codes}
    return {
        "seconds": statistics.median(run["seconds"] for run in runs),
        "codes": codes,
        "counts": collections.Counter(codes.values()),
        "elapsed": elapsed,
        "kinds": kinds,
    }


def sides_of(measured: dict) -> dict:
    """Each way's summary."""
    return {way: summary(measured["runs"][way]) for way in WAYS}


def table(sides: dict, start_up: dict) -> list[list[str]]:
    """The header and a row per way."""
    header = ["way", "wall s", "tests", "passed", "failed", "other", "sum of test s", "start-up s"]
    rows = [header]
    for way in WAYS:
        side = sides[way]
        passed, failed = side["counts"]["PASS"], side["counts"]["FAIL"]
        rows.append(
            [
                way,
                f"{side['seconds']:.2f}",
                str(len(side["codes"])),
                str(passed),
                str(failed),
                str(len(side["codes"]) - passed - failed),
                f"{sum(side['elapsed'].values()):.2f}",
                f"{start_up[way]:.3f}",
            ]
        )
    return rows


def report(measured: dict, jobs: int) -> list[str]:
    """The lines the bench prints."""
    sides = sides_of(measured)
    runs = len(measured["runs"]["pysdy"])
    lines = [f"lit -j {jobs}, median of {runs} run(s) each way"]
    rows = table(sides, measured["start_up"])
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines += ["  ".join(cell.rjust(width) for cell, width in zip(row, widths)) for row in rows]
    pysdy, cpp = sides["pysdy"], sides["C++"]
    for way in WAYS:
        others = sorted((code, count) for code, count in sides[way]["counts"].items() if code not in ("PASS", "FAIL"))
        if others:
            lines.append(f"other, {way}: " + ", ".join(f"{count} {code}" for code, count in others))
    lines.append(f"pysdy/C++ wall time: {pysdy['seconds'] / cpp['seconds']:.2f}")
    processes = pysdy_opt_processes(measured["suite"], pysdy["codes"])
    start_up = measured["start_up"]
    lines.append(
        f"pysdy/C++ start-up: {start_up['pysdy'] / start_up['C++']:.2f}; the RUN lines start pysdy-opt {processes}"
        f" times: {start_up['pysdy'] * processes:.1f} s of start-up for pysdy, {start_up['C++'] * processes:.1f} s for C++"
    )
    for way in WAYS:
        slowest = sorted(sides[way]["elapsed"].items(), key=lambda item: -item[1])[:10]
        lines.append(f"slowest tests, {way}:")
        lines += [f"  {seconds:7.3f} s  {name}" for name, seconds in slowest]
    for way, other in (("C++", "pysdy"), ("pysdy", "C++")):
        only = sorted(
            name
            for name, code in sides[way]["codes"].items()
            if code == "FAIL" and sides[other]["codes"].get(name) != "FAIL"
        )
        kinds = collections.Counter(sides[way]["kinds"][name] for name in only)
        known = "".join(f", {count} {kind}" for kind, count in sorted(kinds.items()) if kind)
        lines.append(f"failing the {way} way only: {len(only)}{known}")
        lines += [f"  {name}" + (f"  ({sides[way]['kinds'][name]})" if sides[way]["kinds"][name] else "") for name in only]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="directories or files inside the suite (default: all of it)")
    parser.add_argument("--suite", default=os.path.join(REPO, "test", "lit"), help="the lit suite (default test/lit)")
    parser.add_argument("--runs", type=int, default=3, help="runs of the suite each way (default 3)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count(), help="lit's -j (default: the CPU count)")
    args = parser.parse_args()
    suite = os.path.abspath(args.suite)
    with tempfile.TemporaryDirectory() as work_dir:
        measured = measure(suite, args.paths, args.runs, args.jobs, work_dir)
    print("\n".join(report(measured, args.jobs)))


if __name__ == "__main__":
    main()
