"""The `pysdy.jax.jit` path across processes: examples/jax_multihost.py runs 2 local processes x 4 CPU devices under
`jax.distributed` (gloo collectives on loopback) and each process checks its results against plain JAX.

About 6 s, so it runs by default; where the host name does not resolve to loopback the example refuses to start
(gloo would listen on another address) and the test is skipped with that reason."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "jax_multihost.py")


def test_two_processes_of_four_cpu_devices_run_one_pysdy_program():
    run = subprocess.run([sys.executable, EXAMPLE], capture_output=True, text=True, timeout=400)
    if run.stdout.startswith("cannot run here"):
        pytest.skip(run.stdout.strip())
    assert run.returncode == 0, run.stdout + run.stderr
    reports = sorted(line for line in run.stdout.splitlines() if line.startswith("process "))
    assert len(reports) == 2, run.stdout
    for process_id, report in enumerate(reports):
        assert report.startswith(f"process {process_id}: OK"), report
        assert "pysdy_compiles=1" in report and "all-reduce=True" in report and "devices=8" in report
    losses = {re.search(r"loss=(\S+)", report).group(1) for report in reports}
    assert len(losses) == 1, "both processes hold the same replicated loss"
