"""`pysdy-run` end to end: inputs and outputs as .npz, the JSON report, and its error messages. It runs in the child
process (runtime_runs.py), where XLA compiles; the test that patches the check runs in this process."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import jax_corpus  # noqa: F401  (gives JAX its 8 CPU devices before the backend starts)
import numpy as np
import pytest
from runtime_runs import run_cli

from pysdy.runtime.comparison import mismatch
from pysdy.tools.pysdy_run import main

DEMO = pathlib.Path(__file__).parents[3] / "examples" / "transformer_block.mlir"

MATMUL = """
module @matmul attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                         %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x4xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
"""
SIXTEEN_DEVICE_MESH = """
module @big {
  sdy.mesh @mesh = <["x"=4, "y"=4]>
  func.func public @main(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<16xf32> {
    return %arg0 : tensor<16xf32>
  }
}
"""


@pytest.fixture
def module_file(tmp_path):
    path = tmp_path / "matmul.mlir"
    path.write_text(MATMUL)
    return str(path)


def _inputs(tmp_path, **arrays) -> str:
    path = tmp_path / "in.npz"
    np.savez(path, **arrays)
    return str(path)


def _matmul_inputs():
    rng = np.random.default_rng(1)
    return rng.standard_normal((8, 16)).astype(np.float32), rng.standard_normal((16, 4)).astype(np.float32)


def _fails_with(arguments, message: str) -> None:
    status, _, error = run_cli(arguments)
    assert status == 1, error
    assert message in error, error
    assert "Traceback" not in error


def _passes(arguments) -> str:
    status, output, error = run_cli(arguments)
    assert status == 0, error
    return output


@pytest.mark.parametrize("route", ["gspmd", "sdy", "pysdy"])
def test_inputs_and_outputs_round_trip(module_file, tmp_path, route):
    a, b = _matmul_inputs()
    out = tmp_path / "out.npz"
    arguments = [module_file, "--inputs", _inputs(tmp_path, arg0=a, arg1=b), "--outputs", str(out), "--route", route]
    assert "check against one device, shardings removed: passed" in _passes(arguments + ["--check"])
    with np.load(out) as results:
        assert results.files == ["result0"]
        assert mismatch(results["result0"], a @ b) is None


def test_json_report_parses_and_names_the_reduction(module_file):
    report = json.loads(_passes([module_file, "--check", "--report", "json"]))
    assert report["route"] == "gspmd"
    assert len(report["devices"]) == 8
    assert [v["name"] for v in report["inputs"]] == ["arg0", "arg1"]
    assert report["inputs"][0]["hlo_sharding"] == "{devices=[2,4]<=[8]}"
    assert report["inputs"][1]["sdy_sharding"] == '#sdy.sharding<@mesh, [{"y"}, {}]>'
    # Each device holds an 8/2 x 16/4 tile of arg0 and a 16/4 x 4 tile of arg1, 4 bytes an element.
    assert report["memory_per_device_bytes"]["argument"] == (4 * 4 + 4 * 4) * 4
    assert "all-reduce" in report["collective_counts"] or "reduce-scatter" in report["collective_counts"]
    assert report["check"]["passed"] is True


def test_pysdy_route_reports_pysdys_per_device_program(module_file):
    """On the pysdy route XLA compiles pysdy's per-device program: every argument manual, each device holding its
    local part (the same bytes as XLA's own partitioning), and the all-reduce pysdy wrote for the split contraction."""
    report = json.loads(_passes([module_file, "--route", "pysdy", "--check", "--report", "json"]))
    assert report["route"] == "pysdy"
    assert "sdy-convert-global-to-local" in report["pipeline"]
    assert [v["hlo_sharding"] for v in report["inputs"]] == ["{manual}", "{manual}"]
    assert report["memory_per_device_bytes"]["argument"] == (4 * 4 + 4 * 4) * 4
    assert report["collective_counts"] == {"all-reduce": 1}
    assert report["check"]["passed"] is True


def test_pysdy_route_refuses_what_pysdy_cannot_partition(tmp_path):
    path = tmp_path / "reverse.mlir"
    path.write_text(
        'sdy.mesh @mesh = <["x"=8]>\n'
        'func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {\n'
        "  %0 = stablehlo.reverse %arg0, dims = [0] : tensor<8xf32>\n"
        "  return %0 : tensor<8xf32>\n"
        "}\n"
    )
    _fails_with([str(path), "--route", "pysdy"], "pysdy's passes failed")


def test_text_report_sections(module_file):
    text = _passes([module_file, "--report"])
    for heading in ("route:    gspmd", "memory per device:", "collectives:", "arg1 float32[16,4]"):
        assert heading in text


def test_wrong_input_names(module_file, tmp_path):
    a, b = _matmul_inputs()
    message = "inputs must be named arg0, arg1: missing arg1; unexpected x"
    _fails_with([module_file, "--inputs", _inputs(tmp_path, arg0=a, x=b)], message)


def test_wrong_input_shape(module_file, tmp_path):
    a, b = _matmul_inputs()
    message = "input arg1 is float32[4,16], but main's argument is float32[16,4]"
    _fails_with([module_file, "--inputs", _inputs(tmp_path, arg0=a, arg1=b.T)], message)


def test_wrong_input_dtype(module_file, tmp_path):
    a, b = _matmul_inputs()
    message = "input arg0 is float64[8,16], but main's argument is float32[8,16]"
    _fails_with([module_file, "--inputs", _inputs(tmp_path, arg0=a.astype(np.float64), arg1=b)], message)


def test_mesh_larger_than_the_device_count(module_file):
    message = "mesh @mesh spans 8 devices, more than the 4 the module is compiled for"
    _fails_with([module_file, "--devices", "4"], message)


def test_too_few_devices(tmp_path):
    path = tmp_path / "big.mlir"
    path.write_text(SIXTEEN_DEVICE_MESH)
    _fails_with([str(path)], "too few devices: the module needs 16, the cpu backend has 8")


def test_unreadable_file_and_invalid_module(tmp_path):
    _fails_with([str(tmp_path / "missing.mlir")], "could not open input file")
    bad = tmp_path / "bad.mlir"
    bad.write_text("module { func.func @main( }")
    _fails_with([str(bad)], "not a valid module")


def test_outputs_differing_from_the_reference_fail_the_check(module_file, monkeypatch, capsys):
    """In this process, since it patches the comparison."""
    import pysdy.runtime.check as check

    monkeypatch.setattr(check, "mismatch", lambda actual, expected: "1 of 32 elements differ")
    assert main([module_file, "--check"]) == 1
    error = capsys.readouterr().err
    assert "outputs differ from one device, shardings removed" in error, error
    assert "Traceback" not in error


GSPMD_FORM = """
module @matmul_gspmd attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"},
                         %arg1: tensor<16x4xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"})
      -> tensor<8x4xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
"""


def test_a_module_in_gspmd_form_is_imported_first(tmp_path):
    path = tmp_path / "gspmd.mlir"
    path.write_text(GSPMD_FORM)
    report = json.loads(_passes([str(path), "--check", "--report", "json"]))
    assert report["pipeline"].startswith("pysdy-inline-calls,xla-sdy-stablehlo-import-pipeline,sdy-propagation-pipeline,")
    assert report["inputs"][1]["sdy_sharding"] == '#sdy.sharding<@mesh, [{"_axis_1"}, {}]>'
    assert report["check"]["passed"] is True


def _fresh_pysdy_run(arguments: list[str]) -> subprocess.CompletedProcess:
    """`pysdy-run <arguments>` as its own process, with the environment it sets up itself."""
    environment = {name: value for name, value in os.environ.items() if name not in ("TF_CPP_MIN_LOG_LEVEL", "JAX_NUM_CPU_DEVICES")}
    pysdy_run = pathlib.Path(sys.executable).parent / "pysdy-run"
    return subprocess.run([str(pysdy_run), *arguments], capture_output=True, text=True, env=environment, timeout=300)


def test_the_demo_checks_and_reports_without_a_line_on_stderr():
    """`make demo` as a fresh process runs it: XLA's C++ logs (its device list, GSPMD's deprecation warning) are
    quiet unless TF_CPP_MIN_LOG_LEVEL asks for them."""
    finished = _fresh_pysdy_run([str(DEMO), "--devices", "8", "--check", "--report"])
    assert finished.returncode == 0, finished.stderr
    assert finished.stderr == ""
    assert "check against one device, shardings removed: passed" in finished.stdout


@pytest.mark.parametrize("route", ["gspmd", "sdy"])
def test_lapack_calls_run_in_a_fresh_process(tmp_path, route):
    """A module calling jaxlib's LAPACK targets (JAX's cholesky) runs where nothing lowered it: the process crashed
    with a segmentation fault before pysdy-run set LAPACK up itself."""
    path = tmp_path / "cholesky.mlir"
    path.write_text(jax_corpus.corpus()["cholesky_batched"])
    finished = _fresh_pysdy_run([str(path), "--devices", "8", "--route", route, "--check"])
    assert finished.returncode == 0, finished.stderr
    assert "check against one device, shardings removed: passed" in finished.stdout
