"""pysdy's memos of IR objects do not keep the contexts they were built in alive once pysdy works in a new one."""

from __future__ import annotations

import gc

from jaxlib.mlir import ir

from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import AxisRef, DimSharding, TensorSharding


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
