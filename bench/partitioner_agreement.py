"""Prints, per program, what jaxlib's C++ and pysdy make of `sdy-convert-global-to-local`, and whether pysdy's own
partitioning of it runs right on 8 CPU devices.

Usage (from the repo root, with any of the project's venvs): `.venv/bin/python bench/partitioner_agreement.py`.
Inputs: the JAX corpus (test/py/jax_corpus.py) and the small one-collective programs
(test/py/partitioned_programs.py), each after jaxlib's C++ propagation and export with explicit collectives.
Columns:

- `C++`: `ok`, `error` or `abort` (the C++ runs in a child process);
- `pysdy`: `same` (the C++'s module, or the same errors), `refused` (at an op it does not convert yet), `wrong
  values` (refused where the per-device program would compute them), `converted` (where the C++ fails), or
  `DIFFERS`;
- `runs`: pysdy's own pipeline (propagation, explicit collectives, conversion) on the global program, then its
  per-device program run on 8 devices against the global program on one (`right`, `WRONG`, or `-` where pysdy
  refuses it), as test/py/runtime/test_pysdy_partitioned_runs.py checks.

A summary line counts each column.
"""

from __future__ import annotations

import collections
import os
import sys

_TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "py")
sys.path[:0] = [_TESTS, os.path.join(_TESTS, "export")]

import jax_corpus  # noqa: E402  (gives JAX its 8 CPU devices before the backend starts)
import located_outcomes  # noqa: E402
from child_process import ChildProcessCrash  # noqa: E402
from partitioned_programs import PROGRAMS, partitioner_pipeline  # noqa: E402

from pysdy.versions import version_text  # noqa: E402

PASS = "sdy-convert-global-to-local"
EXPORT = "sdy-propagation-pipeline,sdy-export-pipeline{enable-insert-explicit-collectives=true}"


def _cpp(text: str, pipeline: str) -> str | None:
    try:
        return located_outcomes.cpp(text, pipeline)
    except ChildProcessCrash:
        return None


def _compare(exported: str) -> tuple[str, str]:
    expected = _cpp(exported, PASS)
    actual = located_outcomes.pysdy(exported, PASS)
    cpp = "abort" if expected is None else "error" if expected.startswith("error: ") else "ok"
    if actual == expected:
        return cpp, "same"
    if actual.startswith("error: "):
        if "pysdy does not implement" in actual:
            return cpp, "refused"
        if "would compute wrong values" in actual or "would reduce whole values" in actual:
            return cpp, "wrong values"
        return cpp, "DIFFERS"
    return cpp, "converted" if cpp != "ok" else "DIFFERS"


def _runs(text: str) -> str:
    from jaxlib.mlir import ir

    from pysdy.dialects.context import make_context
    from pysdy.passes.pipeline import parse_pipeline, run_pipeline
    from pysdy.runtime.host_inputs import random_inputs
    from pysdy.runtime.module_info import module_info_of_text
    from pysdy.runtime.per_device_check import check_per_device

    with make_context():
        module = ir.Module.parse(text)
        try:
            run_pipeline(module, parse_pipeline(partitioner_pipeline()))
        except ir.MLIRError:
            return "-"
        local = str(module)
    run = check_per_device(text, local, random_inputs(module_info_of_text(text), seed=3), 8)
    return "right" if not run.problems else "WRONG"


def main() -> None:
    print(version_text())
    programs = {**PROGRAMS, **jax_corpus.corpus()}
    counts: dict[str, collections.Counter] = {"C++": collections.Counter(), "pysdy": collections.Counter()}
    counts["runs"] = collections.Counter()
    print(f"{'program':<52} {'C++':<6} {'pysdy':<13} runs")
    for name, text in programs.items():
        exported = _cpp(text, EXPORT)
        if exported is None or exported.startswith("error: "):
            cpp, pysdy = "export fails", "-"
        else:
            cpp, pysdy = _compare(exported)
        runs = _runs(text)
        for column, value in (("C++", cpp), ("pysdy", pysdy), ("runs", runs)):
            counts[column][value] += 1
        print(f"{name:<52} {cpp:<6} {pysdy:<13} {runs}", flush=True)
    for column, counter in counts.items():
        print(f"{column}: " + ", ".join(f"{value} {count}" for value, count in counter.most_common()))


if __name__ == "__main__":
    main()
