"""pysdy's MLIR contexts are single-threaded, so diagnostics from nested regions never deadlock on the GIL.

With MLIR's threading on, the verifier checks sibling isolated-from-above ops
(named and manual computations) on worker threads, and the Python bindings'
error capture takes the GIL there while the parsing thread holds it: most
runs of the inputs below hung. Each case runs many times in a subprocess under
a timeout, so a regression fails the test instead of hanging the suite.
"""

import subprocess
import sys
import textwrap

from pysdy.dialects.context import make_context

_T = "tensor<8xf32>"


def _outer(index: int, operand: str, inner_sharding: str) -> str:
    """A named computation holding two nested ones; the second's op has sharding `inner_sharding`."""
    return textwrap.dedent(f"""\
      %outer{index} = sdy.named_computation<"outer{index}">({operand}) (%o{index}: {_T}) {{
        %first{index} = sdy.named_computation<"first{index}">(%o{index}) (%f{index}: {_T}) {{
          sdy.return %f{index} : {_T}
        }} : ({_T}) -> {_T}
        %second{index} = sdy.named_computation<"second{index}">(%first{index}) (%s{index}: {_T}) {{
          %abs{index} = stablehlo.abs %s{index} {{sdy.sharding = #sdy.sharding_per_value<[<{inner_sharding}, [{{}}]>]>}} : {_T}
          sdy.return %abs{index} : {_T}
        }} : ({_T}) -> {_T}
        sdy.return %second{index} : {_T}
      }} : ({_T}) -> {_T}
    """)


def _module(inner_sharding: str) -> str:
    body = _outer(0, "%arg0", inner_sharding) + _outer(1, "%outer0", inner_sharding)
    return (
        'sdy.mesh @mesh = <["a"=2]>\n'
        f"func.func @main(%arg0: {_T}) -> {_T} {{\n{textwrap.indent(body, '  ')}  return %outer1 : {_T}\n}}\n"
    )


def _run_child(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_pysdy_contexts_have_mlir_threading_off():
    assert make_context().get_num_threads() == 1


_CLI_LOOP = """
import sys
from pysdy.tools import pysdy_opt
codes = [pysdy_opt.main([sys.argv[1]]) for _ in range(40)]
print(codes.count(1))
"""


def test_verifier_errors_inside_sibling_nested_computations_come_out(tmp_path):
    source = tmp_path / "nested.mlir"
    source.write_text(_module("@unknown"))
    result = _run_child(_CLI_LOOP, str(source))
    assert result.stdout == "40\n", result.stderr[-2000:]
    message = "error: 'stablehlo.abs' op result - unknown mesh: @unknown"
    assert result.stderr.count(f"{source}:8:15: {message}\n") == 40
    assert result.stderr.count(f"{source}:18:15: {message}\n") == 40


_PASS_LOOP = """
import sys
from jaxlib.mlir import ir, passmanager
from pysdy.dialects.context import make_context
from pysdy.driver.diagnostics import DiagnosticCollector

def unknown_mesh_on_every_abs(op, _pass):
    def visit(child):
        if child.name == "stablehlo.abs":
            child.attributes["sdy.sharding"] = ir.Attribute.parse(
                '#sdy.sharding_per_value<[<@unknown, [{}]>]>')
        return ir.WalkResult.ADVANCE
    op.walk(visit)

failures = 0
for _ in range(40):
    context = make_context()
    with context, DiagnosticCollector(context):
        module = ir.Module.parse(sys.argv[1])
        manager = passmanager.PassManager("builtin.module")
        manager.add(unknown_mesh_on_every_abs, name="break", argument="break")
        try:
            manager.run(module.operation)
        except ir.MLIRError as error:
            failures += any("unknown mesh: @unknown" in d.message for d in error.error_diagnostics)
print(failures)
"""


def test_verifier_after_a_pass_reports_errors_inside_sibling_nested_computations():
    result = _run_child(_PASS_LOOP, _module("@mesh"))
    assert result.stdout == "40\n", result.stderr[-2000:]
