"""`sdy-pad-for-divisibility`, C++ and pysdy: the same printed module, or both fail, on hand-written cases, the JAX
corpus after jaxlib's propagation pipeline, and random single-op modules; where pysdy refuses to pad (it does not
implement the padding), the C++ must change the module (or crash: it aborts on some of those).

The pass runs on each function before jax 0.11 and on the module from 0.11; the pipeline text says which.
"""

from __future__ import annotations

import random

import pytest
from export_inputs import corpus_before, print_after_pysdy
from jax_corpus import program_names
from jaxlib.mlir import ir, passmanager

from child_process import ChildProcessCrash, in_child_process
from propagation.single_op_modules import MORE_OP_GENERATORS, OP_GENERATORS, valid_random_module
from pysdy import versions
from pysdy.dialects.context import make_context

PIPELINE = (
    "sdy-pad-for-divisibility"
    if versions.installed().pad_for_divisibility_on_module
    else "func.func(sdy-pad-for-divisibility)"
)
_IO_ERROR = "has a non-divisible sharding. Shardy expects function IO to be divisible."
_NOT_IMPLEMENTED = "pysdy does not implement padding"

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=2]>\n'
CASES = {
    "divisible": MESH + """
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x", "y"}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
""",
    "unsharded_non_divisible_shapes": MESH + """
func.func @f(%arg0: tensor<7x5xf32>) -> tensor<7x5xf32> {
  %0 = stablehlo.negate %arg0 : tensor<7x5xf32>
  return %0 : tensor<7x5xf32>
}
""",
    "non_divisible_argument": MESH + """
func.func @f(%arg0: tensor<8x8xf32>, %arg1: tensor<7x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<7x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  return %arg1 : tensor<7x8xf32>
}
""",
    "non_divisible_result": MESH + """
func.func @f(%arg0: tensor<8x8xf32>) -> (tensor<7x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.slice %arg0 [0:7, 0:8] : (tensor<8x8xf32>) -> tensor<7x8xf32>
  return %0 : tensor<7x8xf32>
}
""",
    "non_divisible_declaration": MESH + """
func.func private @f(%arg0: tensor<7x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<7x8xf32>
""",
    "non_divisible_inside": MESH + """
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.slice %arg0 [0:7, 0:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<7x8xf32>
  %1 = stablehlo.pad %0, %cst, low = [0, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<7x8xf32>, tensor<f32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
""",
}
SINGLE_OP_SEEDS = range(40)


def _errors(error: ir.MLIRError) -> str:
    """Every error of a failed run, with its location (the C++ follows a function-IO error with its conversion's)."""
    return "error: " + "\n".join(f"{d.location}: {d.message}" for d in error.error_diagnostics)


@in_child_process
def _cpp_outcome(text: str, pipeline: str) -> str:
    """The C++ pass's printed module, or its errors; a fresh context each time (a failed run of this pass
    leaves its context printing later modules empty)."""
    with make_context():
        module = ir.Module.parse(text)
        try:
            passmanager.PassManager.parse(f"builtin.module({pipeline})").run(module.operation)
        except ir.MLIRError as error:
            return _errors(error)
        return str(module)


def _pysdy_outcome(text: str) -> str:
    try:
        return print_after_pysdy(text, PIPELINE)
    except ir.MLIRError as error:
        return _errors(error)


def _printed(text: str) -> str:
    with make_context():
        return str(ir.Module.parse(text))


def check(text: str) -> str:
    """Compares pysdy with the C++ on `text`; returns "same", "io-error" or "refused"."""
    actual = _pysdy_outcome(text)
    try:
        expected = _cpp_outcome(text, PIPELINE)
    except ChildProcessCrash as crash:
        expected = f"crash: {crash}"
    if _NOT_IMPLEMENTED in actual:
        assert expected != _printed(text), text
        return "refused"
    assert actual == expected, text
    return "io-error" if _IO_ERROR in actual else "same"


@pytest.mark.parametrize("case", CASES)
def test_matches_cpp_on_case(case):
    check(CASES[case])


def test_cases_cover_each_outcome():
    outcomes = {check(text) for text in CASES.values()}
    assert outcomes == {"same", "io-error", "refused"}


@pytest.mark.parametrize("program", program_names())
def test_matches_cpp_on_propagated_jax_corpus(program):
    inputs = corpus_before("default", None)
    if program not in inputs:
        pytest.skip("jaxlib's C++ pipeline fails on this program")
    check(inputs[program])


@pytest.mark.parametrize("family", sorted(OP_GENERATORS) + sorted(MORE_OP_GENERATORS))
def test_matches_cpp_on_random_single_ops(family):
    for seed in SINGLE_OP_SEEDS:
        rng = random.Random(f"pad-for-divisibility-{family}-{seed}")
        with make_context():
            drawn = valid_random_module(rng, family)
        if drawn is not None:
            check(drawn[1])


@in_child_process
def _cpp_accepts(pipeline: str) -> bool:
    with make_context():
        try:
            passmanager.PassManager.parse(f"builtin.module({pipeline})")
        except ValueError:
            return False
        return True


@pytest.mark.parametrize("pipeline", ["sdy-pad-for-divisibility", "func.func(sdy-pad-for-divisibility)"])
def test_anchor_is_the_lines(pipeline):
    """Before jax 0.11 a function pass (that jaxlib cannot nest in a module), from 0.11 a module pass."""
    from pysdy.passes.pipeline import PipelineError

    try:
        print_after_pysdy(CASES["divisible"], pipeline)
        pysdy_accepts = True
    except PipelineError:
        pysdy_accepts = False
    expected = (pipeline == "sdy-pad-for-divisibility") == versions.installed().pad_for_divisibility_on_module
    assert _cpp_accepts(pipeline) == expected
    if pipeline.startswith("func.func"):
        assert pysdy_accepts == expected
