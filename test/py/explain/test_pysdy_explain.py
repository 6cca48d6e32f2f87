"""`pysdy-explain` as a user runs it: the summary, one value's chains by name, line or op, JSON, colour only on a
terminal or when asked, and bad input as a located diagnostic with exit 1 and the file untouched."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
MLP = os.path.join(ROOT, "examples", "mlp.mlir")


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "pysdy.tools.pysdy_explain", *args],
        input=stdin, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip


def test_the_summary_lists_reshards_replicated_tensors_and_where_each_argument_axis_comes_from():
    done = run(MLP)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    out = done.stdout
    assert out.startswith("module jit_mlp (")
    assert "mesh @mesh: data=4 x model=2 (8 devices)" in out
    # The second dot contracts dim 1 of its operands, sharded on "model": a partial sum all-reduced over "model".
    assert 'all-reduce: %5 for stablehlo.dot_general at ' in out and 'sums over dimensions sharded across {"model"}' in out
    assert '      dim 0 on "data": the argument %arg0 #sdy.sharding<@mesh, [{"data"}, {}]>' in out
    assert "\033[" not in out  # piped: no colour


def test_a_value_by_name_line_or_op_prints_its_chains():
    by_name = run(MLP, "--value", "%0")
    assert by_name.returncode == 0, by_name.stderr
    assert by_name.stdout.splitlines()[0].startswith("%0 = stablehlo.dot_general f32[32,128] at ")
    assert '  dim 1 on "model", from the argument %arg1' in by_name.stdout
    line = int(by_name.stdout.splitlines()[0].rsplit(":", 1)[1])
    by_line = run(MLP, "--line", str(line))
    assert by_line.stdout == by_name.stdout
    by_op = run(MLP, "--op", "dot_general")
    assert [l for l in by_op.stdout.splitlines() if " = stablehlo.dot_general " in l] == [
        l for l in by_op.stdout.splitlines() if l.startswith("%")
    ]
    assert by_op.stdout.count(" = stablehlo.dot_general ") == 2


def test_json_holds_every_tensor_and_reshard():
    data = json.loads(run(MLP, "--json").stdout)
    assert {t["name"] for t in data["tensors"]} >= {"%arg0", "%arg1", "%arg2", "%arg3", "result 0"}
    assert all(chain["annotation"] is not None for t in data["tensors"] for chain in t["chains"])
    assert [r["collectives"] for r in data["reshards"]] == [["all-reduce"]]


def test_colour_is_used_when_asked():
    assert "\033[1m" in run(MLP, "--color", "always").stdout


def test_bad_input_gets_a_diagnostic_and_exit_1_and_stays_untouched(tmp_path):
    source = tmp_path / "bad.mlir"
    source.write_text("func.func @main() {\n  %0 = stablehlo.tanh\n}\n")
    before = source.read_bytes()
    done = run(str(source))
    assert done.returncode == 1
    assert done.stderr.startswith(f"{source}:2:")
    assert "Traceback" not in done.stderr
    assert source.read_bytes() == before
    missing = run(str(tmp_path / "missing.mlir"))
    assert (missing.returncode, missing.stderr) == (
        1, f"pysdy-explain: error: could not open input file '{tmp_path / 'missing.mlir'}': No such file or directory\n"
    )  # fmt: skip
    unknown = run(MLP, "--value", "%404")
    assert (unknown.returncode, unknown.stderr) == (1, "pysdy-explain: error: no value named '%404' in the module\n")
    nothing = run(MLP, "--line", "100000")
    assert (nothing.returncode, nothing.stderr) == (1, "pysdy-explain: error: no value is made on line 100000\n")
    both = run(MLP, "--value", "%0", "--op", "add")
    assert both.returncode == 1 and "not allowed with argument" in both.stderr


def test_stdin_is_read_when_the_file_is_a_dash():
    with open(MLP) as source:
        done = run("-", stdin=source.read())
    assert done.returncode == 0 and done.stdout.startswith("module jit_mlp (<stdin>)")
