"""pysdy-opt as a user runs it: exit codes, diagnostics, -o, and the input left untouched."""

import os
import subprocess
import sys

import pytest

from pysdy.tools import pysdy_opt

VALID = """sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""


def run_cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "pysdy.tools.pysdy_opt", *args],
        input=stdin, capture_output=True, text=True, check=False,
    )


def test_output_file_is_written_and_input_untouched(tmp_path):
    source = tmp_path / "in.mlir"
    source.write_text(VALID)
    out = tmp_path / "out.mlir"
    assert pysdy_opt.main([str(source), "-sdy-populate-op-sharding-rules", "-o", str(out)]) == 0
    assert source.read_text() == VALID
    assert "#sdy.op_sharding_rule<([i])->([i]) {i=8}>" in out.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mlir", "out.mlir"]


def test_failed_run_leaves_an_existing_output_file_alone(tmp_path):
    source = tmp_path / "in.mlir"
    source.write_text(VALID.replace("%arg0 :", "%argX :", 1))
    out = tmp_path / "out.mlir"
    out.write_text("previous contents\n")
    assert pysdy_opt.main([str(source), "-o", str(out)]) == 1
    assert out.read_text() == "previous contents\n"


def test_parse_error_is_one_mlir_style_diagnostic_and_exit_1(tmp_path):
    source = tmp_path / "bad.mlir"
    source.write_text("func.func @f() {\n  %0 = stablehlo.abs %nope : tensor<f32>\n  return\n}\n")
    result = run_cli(str(source))
    assert result.returncode == 1
    assert result.stderr.startswith(f"{source}:2:22: error: use of undeclared SSA value name\n")
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_stdin_is_read_with_dash():
    result = run_cli("-", "-sdy-populate-op-sharding-rules", stdin=VALID)
    assert result.returncode == 0, result.stderr
    assert "sdy.sharding_rule" in result.stdout


def test_missing_input_file_is_reported_without_traceback(tmp_path):
    result = run_cli(str(tmp_path / "absent.mlir"))
    assert result.returncode == 1
    assert "could not open input file" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_internal_error_is_reported_as_a_bug_not_a_traceback(monkeypatch, capsys, tmp_path):
    source = tmp_path / "in.mlir"
    source.write_text(VALID)

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(pysdy_opt, "run_opt", broken)
    monkeypatch.delenv("PYSDY_TRACEBACK", raising=False)
    assert pysdy_opt.main([str(source)]) == 1
    err = capsys.readouterr().err
    assert "pysdy-opt: internal error: RuntimeError: boom" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("flag", ["--help", "-help", "-h"])
def test_help_lists_every_pass(flag, capsys):
    with pytest.raises(SystemExit) as exit_info:
        pysdy_opt.main([flag])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    from pysdy.passes.registry import all_passes

    for name in all_passes():
        assert f"-{name}" in text


def test_non_utf8_input_is_a_located_error(tmp_path):
    source = tmp_path / "latin1.mlir"
    source.write_bytes(VALID.replace("abs", "abs \xe9", 1).encode("latin-1"))
    result = run_cli(str(source))
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"{source}:3:22: error: invalid UTF-8 byte 0xe9: the input must be UTF-8 text\n"
    )
    assert "internal error" not in result.stderr
    assert result.stdout == ""


def test_non_utf8_stdin_is_a_located_error():
    result = subprocess.run(
        [sys.executable, "-m", "pysdy.tools.pysdy_opt", "-"],
        input=b"func.func @f() {\n  return\n}\n// \xff\n", capture_output=True, check=False,
    )
    assert result.returncode == 1
    assert result.stderr.decode().startswith("<stdin>:4:4: error: invalid UTF-8 byte 0xff")


def test_an_internal_error_in_one_chunk_keeps_the_other_chunks_output(monkeypatch, capsys, tmp_path):
    from pysdy.driver import opt

    parse = opt.parse_source

    def parse_or_break(text, *args):
        if "@boom" in text:
            raise RuntimeError("boom")
        return parse(text, *args)

    monkeypatch.setattr(opt, "parse_source", parse_or_break)
    monkeypatch.delenv("PYSDY_TRACEBACK", raising=False)
    source = tmp_path / "chunks.mlir"
    source.write_text(VALID + "// -----\n\nfunc.func @boom() {\n  return\n}\n// -----\n" + VALID)
    assert pysdy_opt.main([str(source), "-split-input-file", "-sdy-populate-op-sharding-rules"]) == 1
    captured = capsys.readouterr()
    assert captured.out.count("#sdy.op_sharding_rule<([i])->([i]) {i=8}>") == 2
    assert captured.out.count("// -----\n") == 1
    assert captured.err == (
        f"{source}:8:1: error: internal error: RuntimeError: boom "
        "(this is a bug in pysdy; set PYSDY_TRACEBACK=1 to see where)\n"
        "func.func @boom() {\n^\n"
    )


def test_crlf_input_is_processed_and_quoted_without_carriage_returns(tmp_path):
    source = tmp_path / "crlf.mlir"
    source.write_bytes(VALID.replace("%arg0 :", "%argX :", 1).replace("\n", "\r\n").encode())
    result = subprocess.run(
        [sys.executable, "-m", "pysdy.tools.pysdy_opt", str(source)], capture_output=True, check=False
    )
    assert result.returncode == 1
    assert result.stderr.startswith(f"{source}:3:22: error: use of undeclared SSA value name\n".encode())
    assert b"\r" not in result.stderr
    source.write_bytes(VALID.replace("\n", "\r\n").encode())
    assert run_cli(str(source), "-sdy-populate-op-sharding-rules").returncode == 0


@pytest.mark.parametrize("text", ["", "\n"])
def test_an_empty_input_is_an_empty_module_located_at_its_start(text):
    """jaxlib's C++ aborts without @main: in add-func-data-flow-edges from 0.12, before in propagation; pysdy refuses
    at the same step."""
    from pysdy import versions

    step = "add-func-data-flow-edges" if versions.installed().import_calls_after_func_edges else "user-priority-propagate"
    message = f"sdy-{step} needs a function @main, or a single function (jaxlib's C++ aborts without)"
    result = run_cli("-", "-sdy-propagation-pipeline", stdin=text)
    assert result.returncode == 1
    assert result.stderr == f"<stdin>:1:1: error: {message}\n\n^\n"


@pytest.mark.parametrize("option", [b"-canonicalize=max-iterations=\xff", b"--pass-pipeline=builtin.module(cse{\xff})"])
def test_an_option_that_is_not_utf8_is_a_usage_error(tmp_path, option):
    source = tmp_path / "in.mlir"
    source.write_text(VALID)
    result = subprocess.run(
        [sys.executable, "-m", "pysdy.tools.pysdy_opt", str(source), option], capture_output=True, check=False
    )
    assert result.returncode == 1
    shown = option.decode(errors="backslashreplace")
    assert result.stderr.decode() == f"pysdy-opt: option '{shown}' is not UTF-8 text\n"


def test_an_output_file_name_that_is_not_utf8_is_written(tmp_path):
    source = tmp_path / "in.mlir"
    source.write_text(VALID)
    output = os.path.join(os.fsencode(tmp_path), b"out\xff.mlir")
    result = subprocess.run(
        [sys.executable, "-m", "pysdy.tools.pysdy_opt", str(source), "-o", output], capture_output=True, check=False
    )
    assert result.returncode == 0, result.stderr
    with open(output) as f:
        assert "stablehlo.abs" in f.read()


def test_an_input_file_name_that_is_not_utf8_names_its_diagnostics(tmp_path):
    source = os.path.join(os.fsencode(tmp_path), b"in\xff.mlir")
    with open(source, "w") as f:
        f.write(VALID.replace("%arg0 :", "%argX :", 1))
    result = subprocess.run([sys.executable, "-m", "pysdy.tools.pysdy_opt", source], capture_output=True, check=False)
    assert result.returncode == 1
    assert result.stderr.decode().startswith(
        f"{tmp_path}/in\\xff.mlir:3:22: error: use of undeclared SSA value name\n"
        "  %0 = stablehlo.abs %argX : tensor<8xf32>\n"
    )


@pytest.mark.parametrize("name", ["caf\u00e9.mlir", 'back\\slash "quoted".mlir'])
def test_file_names_mlir_escapes_are_named_and_quoted_as_written(tmp_path, name):
    source = tmp_path / name
    source.write_text(VALID.replace("%arg0 :", "%argX :", 1))
    result = run_cli(str(source))
    assert result.stderr.startswith(
        f"{source}:3:22: error: use of undeclared SSA value name\n  %0 = stablehlo.abs %argX : tensor<8xf32>\n"
    )
    source.write_text("// expected-error@+3 {{use of undeclared SSA value name}}\n" + VALID.replace("%arg0 :", "%argX :", 1))
    assert run_cli(str(source), "-verify-diagnostics").returncode == 0


def test_a_location_without_a_file_position_is_shown_as_written(tmp_path):
    source = tmp_path / "named.mlir"
    source.write_text(
        "func.func @f(%arg0: tensor<4xf32>) -> tensor<3xf32> {\n"
        '  return %arg0 : tensor<4xf32> loc("the_return")\n'
        "}\n"
    )
    message = "type of return operand 0 ('tensor<4xf32>') doesn't match function result type ('tensor<3xf32>') in function @f"
    result = run_cli(str(source))
    assert result.returncode == 1
    assert result.stderr.startswith(f'loc("the_return"): error: {message}\n')
    result = run_cli(str(source), "-verify-diagnostics")
    assert result.stderr.startswith(f'loc("the_return"): error: unexpected error: {message}\n')


def test_double_dash_ends_the_options(tmp_path):
    source = tmp_path / "-dashed.mlir"
    source.write_text(VALID)
    result = subprocess.run(
        [sys.executable, "-m", "pysdy.tools.pysdy_opt", "-sdy-populate-op-sharding-rules", "--", source.name],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "sdy.sharding_rule" in result.stdout
    result = run_cli("--", "-sdy-populate-op-sharding-rules")
    assert result.stderr == "pysdy-opt: could not open input file '-sdy-populate-op-sharding-rules': No such file or directory\n"


MODULE = "module {\n" + VALID + "}\n"


def test_no_implicit_module_runs_a_module_as_jaxlib_runs_it(tmp_path):
    from oracle import cpp_output

    expected = cpp_output(MODULE, "sdy-basic-propagate")
    source = tmp_path / "in.mlir"
    source.write_text(MODULE)
    result = run_cli(str(source), "-no-implicit-module", "-sdy-basic-propagate")
    assert (result.returncode, result.stdout, result.stderr) == (0, expected, "")


@pytest.mark.parametrize(
    "text, error",
    [
        (VALID, "source must contain a single top-level operation, found: 2"),
        ("", "source must contain a single top-level operation, found: 0"),
        ("func.func @f() {\n  return\n}\n", "-no-implicit-module: the top-level op must be a 'builtin.module', found 'func.func'"),
    ],
    ids=["two_ops", "empty", "function"],
)
def test_no_implicit_module_refuses_what_is_not_one_module(tmp_path, text, error):
    source = tmp_path / "in.mlir"
    source.write_text(text)
    result = run_cli(str(source), "-no-implicit-module", "-sdy-basic-propagate")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines()[0].endswith(f": error: {error}")
    # Without the flag the same text is wrapped in a module and runs (through a pass that needs no main function).
    assert run_cli(str(source), "-sdy-populate-op-sharding-rules").returncode == 0
