"""bench/lit_suite.py and its C++ stand-in bench/cpp_sdy_opt.py: the stand-in prints what jaxlib's C++ passes make
of a module, refuses what it cannot honour, and the bench counts each way's outcomes on a two-file suite."""

import os
import subprocess
import sys
import textwrap

import pytest
from oracle import cpp_output

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))

import cpp_sdy_opt  # noqa: E402
import lit_suite  # noqa: E402

MODULE = """\
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
"""


def _stand_in(tmp_path, capsys, *flags):
    source = tmp_path / "input.mlir"
    source.write_text(MODULE)
    status = cpp_sdy_opt.main([str(source), *flags])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(
    "flags, pipeline",
    [
        (["-sdy-basic-propagate"], "sdy-basic-propagate"),
        (["-sdy-populate-op-sharding-rules"], "func.func(sdy-populate-op-sharding-rules)"),
        (["--pass-pipeline=builtin.module(sdy-basic-propagate{keep-sharding-rules=true})"],
         "sdy-basic-propagate{keep-sharding-rules=true}"),
        (["-sdy-basic-propagate=keep-sharding-rules=true", "-sdy-populate-op-sharding-rules"],
         "sdy-basic-propagate{keep-sharding-rules=true},func.func(sdy-populate-op-sharding-rules)"),
    ],
)  # fmt: skip
def test_stand_in_prints_what_jaxlibs_pass_manager_prints(tmp_path, capsys, flags, pipeline):
    status, out, err = _stand_in(tmp_path, capsys, *flags)
    assert (status, err) == (0, "")
    assert out == cpp_output(MODULE, pipeline)


@pytest.mark.parametrize("flag", ["--help", "-mlir-timing", "-xla-sdy-import-shardings", "-sdy-no-such-pass"])
def test_stand_in_refuses_what_it_cannot_honour(tmp_path, capsys, flag):
    status, out, err = _stand_in(tmp_path, capsys, flag)
    assert (status, out) == (1, "")
    assert err.startswith("cpp-sdy-opt: ") and "Traceback" not in err


def test_stand_in_checks_expected_diagnostics_per_split(tmp_path, capsys):
    source = tmp_path / "input.mlir"
    source.write_text(
        "func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@nowhere, [{}]>}) -> tensor<8xf32> {\n"
        "  return %arg0 : tensor<8xf32>\n}\n// -----\n"
        "// expected-error @+1 {{unknown mesh: @nowhere}}\n"
        "func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@nowhere, [{}]>}) -> tensor<8xf32> {\n"
        "  return %arg0 : tensor<8xf32>\n}\n"
    )
    status = cpp_sdy_opt.main([str(source), "-split-input-file", "-verify-diagnostics", "-sdy-basic-propagate"])
    err = capsys.readouterr().err
    assert status == 1
    # The first case expected nothing; the second's error is the one it expected.
    assert err.startswith(f"{source}:1:1: error: unexpected error: 'func.func' op arg 0 - unknown mesh: @nowhere\n")
    assert err.count("unexpected error") == 1


def _two_file_suite(directory) -> str:
    """A lit suite of a test both ways pass and one only pysdy-opt passes (its --version)."""
    (directory / "lit.cfg.py").write_text(
        textwrap.dedent(
            f"""\
            import os
            import lit.formats
            config.name = "tiny"
            config.test_format = lit.formats.ShTest()
            config.suffixes = [".mlir"]
            config.test_source_root = os.path.dirname(__file__)
            config.environment["PATH"] = {os.path.dirname(sys.executable)!r} + os.pathsep + os.environ["PATH"]
            config.excludes = ["lit.cfg.py"]
            """
        )
    )
    (directory / "propagates.mlir").write_text(
        "// RUN: pysdy-opt %s -sdy-basic-propagate | filecheck %s\n" + MODULE.replace("return", "// CHECK: negate\n  return")
    )
    (directory / "version.mlir").write_text("// RUN: pysdy-opt --version | filecheck %s\n// CHECK: jax\n")
    return str(directory)


def test_bench_runs_each_way_and_counts_the_cpp_failures(tmp_path):
    (tmp_path / "suite").mkdir()
    (tmp_path / "work").mkdir()
    suite = _two_file_suite(tmp_path / "suite")
    measured = lit_suite.measure(suite, [], runs=1, jobs=2, work_dir=str(tmp_path / "work"))
    sides = lit_suite.sides_of(measured)
    header, *cells = lit_suite.table(sides, measured["start_up"])
    rows = {row[0]: dict(zip(header, row)) for row in cells}
    assert [rows[way]["tests"] for way in ("pysdy", "C++")] == ["2", "2"]
    lines = lit_suite.report(measured, jobs=2)
    assert [(rows[way]["passed"], rows[way]["failed"]) for way in ("pysdy", "C++")] == [("2", "0"), ("1", "1")]
    failing = "failing the C++ way only: 1, 1 a flag the stand-in refuses"
    assert lines[lines.index(failing) + 1] == "  tiny :: version.mlir  (a flag the stand-in refuses)"
    assert "failing the pysdy way only: 0" in lines
    assert "the RUN lines start pysdy-opt 2 times" in lines[5]


def test_stand_in_leaves_the_ops_printed_on_diagnostics_out_of_verification(tmp_path):
    """sdy_opt prints no op on a diagnostic under -verify-diagnostics; the bindings cannot turn that off, so the
    stand-in drops the op notes (here Shardy's note on its warning, which it emits once a process: a child)."""
    source = tmp_path / "input.mlir"
    source.write_text(
        "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        "  // expected-warning@+1 {{custom call @foo is unknown to SDY sharding rule registry}}\n"
        "  %0 = stablehlo.custom_call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
        "  return %0 : tensor<8xf32>\n}\n"
    )
    command = [sys.executable, cpp_sdy_opt.__file__, str(source), "-sdy-populate-op-sharding-rules"]
    verified = subprocess.run([*command, "-verify-diagnostics"], capture_output=True, text=True)
    assert (verified.returncode, verified.stderr) == (0, "")
    unverified = subprocess.run(command, capture_output=True, text=True)
    assert f"{source}:3:8: note: %0 = stablehlo.custom_call @foo" in unverified.stderr


@pytest.mark.parametrize(
    "test, kind",
    [
        ({"code": "FAIL", "output": "error: command failed with exit status: -11"}, "killed by signal 11"),
        ({"code": "FAIL", "output": "cpp-sdy-opt: 'help' is neither a pass"}, "a flag the stand-in refuses"),
        ({"code": "FAIL", "output": "error: command failed with exit status: 1"}, ""),
        ({"code": "PASS", "output": ""}, ""),
    ],
)
def test_failure_kinds(test, kind):
    assert lit_suite.failure_kind(test) == kind
