"""`sdy-resolve-permutation-factors` (both values of `enable-halo-exchange`), C++ and pysdy: the same printed module
on hand-written cases (permutation_factor_cases.mlir), the JAX corpus after jaxlib's propagation pipeline, and random
single-op modules (pads, slices, reverses, convolutions, reshapes... with random shardings).

pysdy refuses, with an error, what jaxlib's Shardy does by halo exchange (it does not implement those) and what the
C++ crashes on. Each refusal is checked against the C++: a halo-exchange refusal where the C++ leaves the module as
it is would be a refusal pysdy need not make, so it must be one of the listed conservative kinds; a crash refusal
must meet a C++ crash.
"""

from __future__ import annotations

import pathlib
import random

import pytest
from export_inputs import corpus_before, print_after_pysdy
from jax_corpus import program_names
from jaxlib.mlir import ir
from oracle import cpp_output

from child_process import ChildProcessCrash
from line_side import when
from propagation.single_op_modules import MORE_OP_GENERATORS, OP_GENERATORS, valid_random_module
from pysdy import versions
from pysdy.dialects.context import make_context

PIPELINES = {
    "halo": "sdy-resolve-permutation-factors",
    "replicate": "sdy-resolve-permutation-factors{enable-halo-exchange=false}",
}
CASES = {
    part.split("func.func @")[1].split("(")[0]: part
    for part in (pathlib.Path(__file__).parent / "permutation_factor_cases.mlir").read_text().split("// -----")
}
# pysdy's refusals where jaxlib's Shardy exchanges halos (or, for reshapes, reshards).
_NOT_IMPLEMENTED = "pysdy does not implement"
# pysdy's refusals where jaxlib's Shardy crashes (or fails its verifier).
_CPP_CRASHES = (
    "the slice's operand and result are sharded differently",
    "the reverse's result has no sharding to reshard back to",
    "the reshape's operand and result are not both sharded",
    "operand has no sharding",
)
# Refusals that are broader than the C++'s rewrite: the C++ may leave such an op as it is. From jax 0.11 jaxlib
# leaves a sharded reshape whose shards line up across it, and on 0.11 a slice whose shards each device finds in its
# own operand shard (at another offset per device); pysdy refuses every sharded reshape and such slices. It also
# refuses every op with permutation factors some of whose dimensions have more shards than elements, where jaxlib's
# replication departs from its own (it reshards factors that are not permutation factors, or leaves some), and so
# with unreduced axes (jaxlib leaves some of those as they are), and from jax 0.12 a dynamic update slice whose result
# alone would be resharded (jaxlib leaves some of those) or any sharded convolution (jaxlib replicates factors of
# some beyond their permutation factors: a grouped convolution's feature dimensions).
_CONSERVATIVE = ("'stablehlo.reshape'", "halo exchange of a 'stablehlo.slice'", "sharded unevenly", "more shards than elements", "unreduced axes", "dynamic_update_slice' alone",
    "of a sharded convolution",
)
SINGLE_OP_FAMILIES = ("slice", "pad", "reverse", "convolution", "reshape", "dynamic_slice", "elementwise")
SINGLE_OP_SEEDS = range(60)


def _outcome(run, text: str, pipeline: str) -> str:
    try:
        return run(text, pipeline)
    except ir.MLIRError as error:
        return f"error: {error}"
    except ChildProcessCrash as crash:
        return f"crash: {crash}"


def _unchanged(text: str) -> str:
    with make_context():
        return str(ir.Module.parse(text))


def check(text: str, pipeline: str) -> str:
    """Compares pysdy with the C++ on `text`; returns "same", "changed-same" or the kind of refusal."""
    actual = _outcome(print_after_pysdy, text, pipeline)
    if any(crash in actual for crash in _CPP_CRASHES):
        assert _outcome(cpp_output, text, pipeline).startswith(("crash:", "error:")), text
        return "refused-cpp-crashes"
    expected = _outcome(cpp_output, text, pipeline)
    if _NOT_IMPLEMENTED in actual:
        if expected == _unchanged(text):
            assert any(kind in actual for kind in _CONSERVATIVE), (actual, text)
            return "refused-cpp-unchanged"
        return "refused-cpp-rewrites"
    assert actual == expected, text
    return "changed-same" if actual != _unchanged(text) else "same"


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("case", CASES)
def test_matches_cpp_on_case(case, pipeline):
    check(CASES[case], PIPELINES[pipeline])


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_cases_exercise_the_pass(pipeline):
    """Most hand-written cases are rewritten by both, so the agreement above means something."""
    outcomes = [check(text, PIPELINES[pipeline]) for text in CASES.values()]
    assert outcomes.count("changed-same") >= 8, outcomes


def _propagated_corpus() -> dict[str, str]:
    return corpus_before("default", None)


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("program", program_names())
def test_matches_cpp_on_propagated_jax_corpus(program, pipeline):
    inputs = _propagated_corpus()
    if program not in inputs:
        pytest.skip("jaxlib's C++ pipeline fails on this program")
    check(inputs[program], PIPELINES[pipeline])


def _single_op(family: str, seed: int) -> str | None:
    rng = random.Random(f"permutation-factors-{family}-{seed}")
    with make_context():
        drawn = valid_random_module(rng, family)
    return None if drawn is None else drawn[1]


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("family", SINGLE_OP_FAMILIES)
def test_matches_cpp_on_random_single_ops(family, pipeline):
    for seed in SINGLE_OP_SEEDS:
        text = _single_op(family, seed)
        if text is not None:
            check(text, PIPELINES[pipeline])


def test_single_op_generators_cover_the_families():
    assert set(SINGLE_OP_FAMILIES) <= set(OP_GENERATORS) | set(MORE_OP_GENERATORS)


@pytest.mark.parametrize("case", ["reverse_sharded_dim", "reverse_device_ids"])
def test_reverse_mirrors_the_lines_tensor(case):
    """Before jax 0.11 the operand moves onto the mirrored mesh; from 0.11 the result is on it, resharded back."""
    output = print_after_pysdy(CASES[case], PIPELINES["halo"])
    reverse_line = next(line for line in output.splitlines() if "stablehlo.reverse" in line)
    mirrored_result = "_reversed, [" in reverse_line
    assert mirrored_result == versions.installed().permutation_factors_reverse_result_mirrored
    assert ("sdy.reshard %arg0 <@mesh_reversed" in output) != mirrored_result


def test_communication_free_pad_stays_sharded_from_jax_0_11():
    output = print_after_pysdy(CASES["pad_communication_free"], PIPELINES["replicate"])
    assert ("sdy.reshard" not in output) == versions.installed().permutation_factors_halo_pad_slice_reshape


# A pad whose operand has no sharding, with halo exchange off: jax 0.11's Shardy aborts when it asks whether the
# pad's dimensions need communication; 0.10 replicates the padded dimension, 0.12 leaves the pad as it is.
PAD_OF_UNSHARDED_OPERAND = """sdy.mesh @mesh = <["x"=2]>
func.func @pad_of_unsharded_operand(%arg0: tensor<8xf32>, %arg1: tensor<f32>) -> tensor<12xf32> {
  %0 = stablehlo.pad %arg0, %arg1, low = [2], high = [2], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<12xf32>
  return %0 : tensor<12xf32>
}
"""
# A reshape whose result alone has a sharding: jax 0.11's Shardy aborts checking that both sides have one.
RESHAPE_OF_UNSHARDED_OPERAND = """sdy.mesh @mesh = <["x"=2]>
func.func @reshape_of_unsharded_operand(%arg0: tensor<8x4xf32>) -> tensor<32xf32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8x4xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
"""


@when("permutation_factors_crash_on_missing_shardings", True)
@pytest.mark.parametrize(
    "text,pipeline,error",
    [
        (PAD_OF_UNSHARDED_OPERAND, PIPELINES["replicate"], "the 'stablehlo.pad' operand has no sharding"),
        (RESHAPE_OF_UNSHARDED_OPERAND, PIPELINES["halo"], "the reshape's operand and result are not both sharded"),
    ],
    ids=["pad", "reshape"],
)
def test_missing_sharding_where_the_cpp_aborts_is_refused(text, pipeline, error):
    with pytest.raises(ChildProcessCrash):
        cpp_output(text, pipeline)
    with pytest.raises(ir.MLIRError) as refusal:
        print_after_pysdy(text, pipeline)
    first = refusal.value.error_diagnostics[0]
    assert (str(first.location), first.message) == ('loc("-":3:8)', f"sdy-resolve-permutation-factors: {error}")


@when("permutation_factors_crash_on_missing_shardings", False)
def test_pad_of_unsharded_operand_is_resolved_as_the_cpp_does():
    expected = cpp_output(PAD_OF_UNSHARDED_OPERAND, PIPELINES["replicate"])
    assert print_after_pysdy(PAD_OF_UNSHARDED_OPERAND, PIPELINES["replicate"]) == expected


# A dynamic update slice whose operand needs no reshard while its result would lose "x" on the sliced dimension.
DUS_RESULT_ALONE = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @dus_result_alone(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg2: tensor<i32>, %arg3: tensor<i32>) -> tensor<8x8xf32> {
  %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x8xf32>, tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
"""


@when("permutation_factors_dus_result_follows_operand", True)
def test_dus_result_alone_is_left_by_the_cpp_and_refused():
    """From jax 0.12 the C++ leaves such a result sharded (pysdy does not know its rule there and refuses)."""
    assert cpp_output(DUS_RESULT_ALONE, PIPELINES["halo"]) == _unchanged(DUS_RESULT_ALONE)
    with pytest.raises(ir.MLIRError) as refusal:
        print_after_pysdy(DUS_RESULT_ALONE, PIPELINES["halo"])
    first = refusal.value.error_diagnostics[0]
    assert (str(first.location), first.message) == (
        'loc("-":3:8)',
        "sdy-resolve-permutation-factors: pysdy does not implement replicating the result of a "
        "'stablehlo.dynamic_update_slice' alone",
    )
