"""`-allow-unregistered-dialect`: ops of unknown dialects parse, and every pass treats them as C++ Shardy does."""

import subprocess
import sys

import pytest
from jaxlib.mlir import ir, passmanager

from child_process import ChildProcessCrash, in_child_process
from pysdy.dialects.context import make_context
from pysdy.passes.diagnostics import warnings_to
from pysdy.passes.pipeline import parse_pipeline, run_pipeline
from pysdy.passes.registry import all_passes

# Unknown ops with and without shardings, several results, none, a region, an unknown type, beside sdy ops.
UNKNOWN_OPS = """sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>) {
  %0:2 = "foo.multi"(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>, <@mesh, [{"a"}]>]>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>)
  %1 = stablehlo.dot_general %0#0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  "foo.side_effect"(%1) : (tensor<8x8xf32>) -> ()
  %2 = sdy.reshard %1 <@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  %3 = "foo.to_opaque"(%2) : (tensor<8x8xf32>) -> !foo.opaque
  %4 = "foo.from_opaque"(%3) : (!foo.opaque) -> tensor<8x8xf32>
  %5 = "foo.constant"() {value = 3 : i64} : () -> tensor<8x8xf32>
  %6 = stablehlo.add %4, %5 : tensor<8x8xf32>
  %7 = sdy.sharding_constraint %6 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %7, %0#1 : tensor<8x8xf32>, tensor<8xf32>
}
"""

# An unknown op with one region may be a symbol table: MLIR's symbol-dce, and so the import, refuse it.
UNKNOWN_REGION_OP = """sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = "foo.wrap"(%arg0) ({
  ^bb0(%x: tensor<8xf32>):
    %1 = stablehlo.negate %x : tensor<8xf32>
    "foo.yield"(%1) : (tensor<8xf32>) -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = func.call @g(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
func.func private @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""

# An unknown op inside a manual computation, and an unknown terminator in a callee.
UNKNOWN_IN_BODIES = """sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%x: tensor<4xf32>) {
    %1 = "foo.inner"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %2 = func.call @g(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
func.func private @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  "foo.return"(%0) : (tensor<8xf32>) -> ()
}
"""

_PIPELINES = ["sdy-import-pipeline", "sdy-propagation-pipeline", "sdy-export-pipeline"]
_EVERY_SDY_PASS = [name for name in all_passes() if name.startswith("sdy-")]


def _outcome(text: str, run) -> tuple[str, list[str]]:
    """(printed module or first error, warnings) for `run(module)` in a context allowing unknown dialects."""
    warnings = []
    with make_context(allow_unregistered_dialects=True) as context:
        context.attach_diagnostic_handler(
            lambda d: d.severity == ir.DiagnosticSeverity.WARNING and warnings.append(f"{d.location}: {d.message}")
            or True
        )
        with warnings_to(lambda location, message: warnings.append(f"{location}: {message}")):
            module = ir.Module.parse(text)
            try:
                run(module)
            except ir.MLIRError as error:
                first = error.error_diagnostics[0]
                return f"error: {first.location}: {first.message}", warnings
            return str(module), warnings


@in_child_process
def _cpp_outcome(text: str, name: str) -> tuple[str, list[str]]:
    """`_outcome` of jaxlib's C++ pass or pipeline `name`."""

    def run(module):
        try:
            manager = passmanager.PassManager.parse(f"builtin.module({name})")
        except ValueError:
            manager = passmanager.PassManager.parse(f"builtin.module(func.func({name}))")
        manager.run(module.operation)

    return _outcome(text, run)


def _pysdy(name: str):
    return lambda module: run_pipeline(module, parse_pipeline(name))


# The propagation passes on their own (without the import) differ from C++ on manual computations whatever
# their body holds, so the module with one runs only through the pipelines.
@pytest.mark.parametrize(
    "text,name",
    [pytest.param(UNKNOWN_OPS, name, id=f"unknown_ops-{name}") for name in _EVERY_SDY_PASS]
    + [pytest.param(UNKNOWN_REGION_OP, name, id=f"unknown_region_op-{name}") for name in _EVERY_SDY_PASS]
    + [pytest.param(UNKNOWN_IN_BODIES, name, id=f"unknown_in_bodies-{name}") for name in _PIPELINES],
)
def test_pass_treats_unknown_ops_as_cpp_does(text, name):
    actual = _outcome(text, _pysdy(name))
    try:
        expected = _cpp_outcome(text, name)
    except ChildProcessCrash:  # jaxlib's pass aborts (sdy-per-instruction-partitioning here): pysdy must refuse
        assert actual[0].startswith("error: ")
        return
    if "pysdy does not implement" in actual[0]:  # a rewrite pysdy refuses: the C++ must change the module or fail
        assert expected[0] != _outcome(text, lambda module: None)[0]
        return
    assert _without_registry_warning(actual) == _without_registry_warning(expected)


def _without_registry_warning(outcome: tuple[str, list[str]]) -> tuple[str, list[str]]:
    """The outcome without "unknown to SDY sharding rule registry", which both sides give once per process (so it
    depends on which test ran first there); test_unknown_op_warnings.py checks it in fresh processes."""
    output, warnings = outcome
    return output, [warning for warning in warnings if not warning.endswith("unknown to SDY sharding rule registry")]


def test_import_refuses_an_unknown_op_with_a_region_as_mlir_symbol_dce_does():
    output, _ = _outcome(UNKNOWN_REGION_OP, _pysdy("sdy-import-pipeline"))
    assert output == (
        'error: loc("-":2:1): operation contains potentially unknown symbol table, '
        "meaning that we can't reliable compute symbol uses"
    )


def _cli(path, *flags):
    return subprocess.run(
        [sys.executable, "-m", "pysdy.tools.pysdy_opt", str(path), *flags],
        capture_output=True, text=True, check=False,
    )


def test_without_the_flag_an_unknown_op_is_a_located_parse_error(tmp_path):
    source = tmp_path / "unknown.mlir"
    source.write_text(UNKNOWN_OPS)
    result = _cli(source)
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"{source}:3:21: error: operation being parsed with an unregistered dialect. "
        "If this is intended, please use -allow-unregistered-dialect with the MLIR tool used\n"
    )
    assert result.stdout == ""


def test_with_the_flag_the_module_is_processed(tmp_path):
    source = tmp_path / "unknown.mlir"
    source.write_text(UNKNOWN_OPS)
    result = _cli(source, "-allow-unregistered-dialect", "-sdy-propagation-pipeline")
    assert result.returncode == 0, result.stderr
    expected, _ = _cpp_outcome(UNKNOWN_OPS, "sdy-propagation-pipeline")
    assert result.stdout == expected
    assert result.stderr.startswith(
        f"{source}:3:10: warning: op 'foo.multi' is unknown to SDY sharding rule registry\n"
    )
