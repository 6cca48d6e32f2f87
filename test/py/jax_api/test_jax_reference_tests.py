"""JAX's own tests that once gave silent wrong values through the hook, run with `pysdy.jax.install()` for the session
(pysdy_hook_plugin.py) on 8 CPU devices, from the reference copy of JAX's test files for the installed JAX."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import jax
import pytest

from pysdy import versions

_REFERENCE = "/work/shared/reference/jax-tests"
# The reference folder written for each jax line: its own release where there is one, else the newest before it.
_FOLDER = {"0.10": "v0.10.2", "0.11": "v0.11.0", "0.12": "v0.11.0"}
# How long the child may take: a test file's import and one test, on a busy machine.
_TIMEOUT_SECONDS = 240

TESTS = [
    # Its manual computation gets the C++'s out_shardings (test/lit/propagation/manual_computation_free_axes.mlir).
    "shard_map_test.py::CustomPartitionerTest::test_partially_sharded_dim_with_auto",
    # A replicated value made unreduced: a device's copy each, or pysdy's refusal (runtime/unreduced_sources.py).
    "pjit_test.py::ShardingInTypesTest::test_cet_unreduced",
]
# What the hook may answer instead of the JAX test's value: pysdy's refusal, never a wrong value.
REFUSALS = {"pjit_test.py::ShardingInTypesTest::test_cet_unreduced": "PysdyExportError: pysdy cannot hand"}


def _folder() -> str:
    return os.path.join(_REFERENCE, _FOLDER[versions.installed().name])


@pytest.mark.parametrize("test_id", TESTS)
def test_jax_reference_test_through_the_hook(test_id, tmp_path):
    pytest.importorskip("absl", reason="JAX's test files need absl-py")
    path = os.path.join(_folder(), test_id.split("::")[0])
    if not os.path.exists(path):
        pytest.skip(f"no reference copy of JAX's tests at {path}")
    environment = dict(
        os.environ,
        JAX_NUM_CPU_DEVICES="8",
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONPATH=os.pathsep.join([os.path.dirname(__file__), os.environ.get("PYTHONPATH", "")]),
    )
    command = [sys.executable, "-m", "pytest", "-p", "pysdy_hook_plugin", "-p", "no:cacheprovider", "-q", "-rA"]
    command += ["-c", os.devnull, "--rootdir", _folder(), os.path.join(_folder(), test_id)]
    child = subprocess.run(
        command, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=_TIMEOUT_SECONDS
    )
    output = child.stdout + child.stderr
    if re.search(r"^ERROR .*\.py$", output, re.MULTILINE) and "ImportError while importing test module" in output:
        pytest.skip(f"{os.path.basename(path)} does not import on jax {jax.__version__}")
    if test_id in REFUSALS and REFUSALS[test_id] in output:
        assert "AssertionError" not in output, output[-4000:]
        return
    assert re.search(rf"^PASSED .*{re.escape(test_id)}$", output, re.MULTILINE), output[-4000:]
