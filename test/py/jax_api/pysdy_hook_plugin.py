"""A pytest plugin that compiles every `jax.jit` of the session through pysdy (`pysdy.jax.install()`), for running
JAX's own test files with the hook: `pytest -p pysdy_hook_plugin` with this folder on PYTHONPATH.

With PYSDY_HOOK_CAPTURE_DIR set, each test's compilations (`pysdy.jax.compilations()`: JAX's module and pysdy's
export) are written there, one folder per test, as `<n>_<module>.jax.mlir` and `<n>_<module>.exported.mlir`.
With PYSDY_HOOK_SUMMARY_FILE set, the session's `pysdy.jax.hook_summary()` is written there as JSON at its end.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re

import pytest

import pysdy.jax

_CAPTURE_DIR = "PYSDY_HOOK_CAPTURE_DIR"
SUMMARY_FILE = "PYSDY_HOOK_SUMMARY_FILE"


def pytest_configure(config: pytest.Config) -> None:
    pysdy.jax.install()


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = os.environ.get(SUMMARY_FILE)
    if path:
        summary = json.dumps(dataclasses.asdict(pysdy.jax.hook_summary()))
        with open(path, "w", encoding="utf-8") as out:
            out.write(summary)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item):
    before = pysdy.jax.compilations()  # kept alive, so no new compilation can reuse one of their ids
    seen = {id(compilation) for compilation in before}
    yield
    directory = os.environ.get(_CAPTURE_DIR)
    if directory:
        new = [c for c in pysdy.jax.compilations() if id(c) not in seen]
        _write_compilations(os.path.join(directory, re.sub(r"[^\w.-]+", "_", item.nodeid)), new)


def _write_compilations(directory: str, new: list[pysdy.jax.PysdyCompilation]) -> None:
    os.makedirs(directory, exist_ok=True)
    for index, compilation in enumerate(new):
        stem = os.path.join(directory, f"{index}_{compilation.module_name}")
        with open(f"{stem}.jax.mlir", "w") as out:
            out.write(compilation.jax_module)
        with open(f"{stem}.exported.mlir", "w") as out:
            out.write(compilation.exported_module)
