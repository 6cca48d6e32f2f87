"""Prints how many JAX corpus programs pysdy's pipelines turn into exactly what the installed jaxlib's C++ prints.

Usage (from the repo root, with any of the project's venvs): `.venv/bin/python bench/corpus_agreement.py`.
The corpus (test/py/jax_corpus.py) is lowered by the installed JAX, so each jax line is compared on its own
lowering. An outcome is the printed module, after the errors when the pipeline fails; a C++ abort counts in its
own column (the C++ runs in a child process).
"""

from __future__ import annotations

import os
import sys

_TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "py")
sys.path[:0] = [_TESTS, os.path.join(_TESTS, "propagation")]

from child_process import ChildProcessCrash  # noqa: E402
from jax_corpus import corpus  # noqa: E402
from propagation_oracle import cpp_outcome, pysdy_outcome  # noqa: E402

from pysdy.passes.diagnostics import warnings_to  # noqa: E402
from pysdy.versions import version_text  # noqa: E402

PIPELINES = [
    "sdy-import-pipeline",
    "sdy-propagation-pipeline",
    "sdy-propagation-pipeline,sdy-export-pipeline",
    "sdy-propagation-pipeline,sdy-export-pipeline{enable-insert-explicit-collectives=true}",
]


def main() -> None:
    programs = corpus()
    print(version_text())
    print(f"{'pipeline':<90} identical / total  C++ aborts")
    for pipeline in PIPELINES:
        identical = aborts = 0
        for name, text in programs.items():
            try:
                expected = cpp_outcome(text, pipeline)
            except ChildProcessCrash:
                aborts += 1
                continue
            with warnings_to(lambda location, message: None):  # the C++ child's warnings go unseen too
                identical += pysdy_outcome(text, pipeline) == expected
        print(f"{pipeline:<90} {identical:>9} / {len(programs):<5}  {aborts}")


if __name__ == "__main__":
    main()
