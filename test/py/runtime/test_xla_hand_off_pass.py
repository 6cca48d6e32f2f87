"""`pysdy-opt ... -pysdy-xla-hand-off`: the form pysdy-run and pysdy.jax hand XLA, from the command line; XLA
compiles what it prints for JAX-lowered programs on both routes."""

from __future__ import annotations

import subprocess
import sys

import jax_corpus
import pytest
from runtime_runs import compiles_as_is

from pysdy.runtime.pysdy_passes import ROUTES

# Loops (scan, while, remat, scan's gradient), branches and manual computations; the slow test takes them all.
FAST = ("scan_over_layers", "scan_over_layers_grad", "while_loop_power_iteration", "mlp_grad_with_remat",
        "cond_branches", "shard_map_psum")  # fmt: skip
PROPAGATION = {
    "sdy": "-sdy-propagation-pipeline=avoid-export-for-partitioning=true",
    "gspmd": "-pysdy-inline-calls -sdy-propagation-pipeline",
}


def _hand_off(text: str, route: str, tmp_path) -> str:
    source = tmp_path / "module.mlir"
    source.write_text(text)
    command = [sys.executable, "-m", "pysdy.tools.pysdy_opt", str(source), *PROPAGATION[route].split(),
               f"-pysdy-xla-hand-off=route={route}"]  # fmt: skip
    completed = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


def _check(name: str, route: str, tmp_path) -> None:
    handed = _hand_off(jax_corpus.corpus()[name], route, tmp_path)
    if route == "sdy":
        assert "sdy.mesh" in handed and "mhlo.sharding" not in handed
    else:
        assert "sdy.sharding =" not in handed and "mhlo.sharding" in handed
    assert compiles_as_is(handed, route)


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("name", FAST)
def test_xla_compiles_the_hand_off_of_a_jax_program(name, route, tmp_path):
    _check(name, route, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("name", [n for n in jax_corpus.program_names() if n not in FAST])
def test_xla_compiles_the_hand_off_of_every_jax_program(name, route, tmp_path):
    _check(name, route, tmp_path)


def test_an_unknown_route_is_a_located_error(tmp_path):
    source = tmp_path / "module.mlir"
    source.write_text("module {\n}\n")
    command = [sys.executable, "-m", "pysdy.tools.pysdy_opt", str(source), "-pysdy-xla-hand-off=route=tpu"]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert completed.returncode == 1
    assert completed.stderr.startswith(f"{source}:1:1: error: pysdy-xla-hand-off: unknown route 'tpu': use one of ")
