"""pysdy's memos of IR objects (attributes, pass managers) do not keep the contexts they were built in alive once pysdy
works in a new one."""

from __future__ import annotations

import gc

from jaxlib.mlir import ir

from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import AxisRef, DimSharding, TensorSharding
from pysdy.passes import pipeline
from pysdy.passes.pipeline import parse_pipeline, run_pipeline


def test_attributes_built_outside_a_pass_do_not_keep_their_context_alive():
    """A test's module generator builds attributes in a fresh context per case without running a pass: before, the
    attribute memos kept every such context (about 1.5 MB each, 24 GB over the slow suite)."""
    gc.collect()
    before = ir.Context._get_live_count()
    for size in range(2, 22):
        with make_context():
            TensorSharding("mesh", (DimSharding((AxisRef("x"),)), DimSharding((AxisRef(f"y{size}"),)))).to_attr()
    gc.collect()
    assert ir.Context._get_live_count() - before <= 1


def test_pass_managers_kept_for_reuse_do_not_keep_their_context_alive():
    """The pass managers pysdy keeps to run the same pipeline again hold their context: they go with the other
    memos once pysdy works in a new one."""
    text = 'sdy.mesh @mesh = <["x"=2]>\nfunc.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  return %arg0 : tensor<8xf32>\n}\n'
    gc.collect()
    before = ir.Context._get_live_count()
    for _ in range(20):
        with make_context():
            module = ir.Module.parse(text)
            run_pipeline(module, parse_pipeline("sdy-propagation-pipeline"))
            del module
    gc.collect()
    assert ir.Context._get_live_count() - before <= 1


def test_a_pipeline_run_again_in_its_context_reuses_its_pass_manager_and_gives_the_same_output():
    text = (
        'sdy.mesh @mesh = <["x"=2]>\nfunc.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})'
        " -> tensor<8xf32> {\n  %0 = stablehlo.negate %arg0 : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n"
    )
    steps = parse_pipeline("sdy-propagation-pipeline")
    with make_context() as context:
        outputs = []
        for _ in range(3):
            module = ir.Module.parse(text)
            run_pipeline(module, steps)
            outputs.append(str(module))
        assert len(pipeline._idle_pass_managers(steps, context, True)) == 1  # built once, back after each run
    assert outputs[0] == outputs[1] == outputs[2]
    assert 'stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}' in outputs[0]
