"""The GSPMD round trip: importing pysdy's export and exporting it again gives back every `mhlo.sharding`.

export(import(export(m))) must equal export(m) op for op: the same ops in
the same order and, on every function argument, result and op, the same
sharding as XLA's HloSharding compares them (so the recovered mesh may name
and cut its axes differently). The first export is itself checked against
XLA in test_export_pipeline.py, so this is the lossless-import check of
issue 4 on modules XLA would accept: propagated JAX programs and random
modules with device orders, sub-axes, constraints and manual computations.
"""

from __future__ import annotations

import jax_corpus
import pytest
import xla_oracle
from hypothesis import given
from jax._src.lib import xla_client as xc
from jaxlib.mlir import ir
from test_export_pipeline import FAST, SLOW, random_modules

from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import parse_pipeline, run_pipeline

EXPORT = "xla-sdy-stablehlo-export-pipeline"
IMPORT = "xla-sdy-stablehlo-import-pipeline"
MHLO_SHARDING = "mhlo.sharding"


def _run(text: str, pipeline: str) -> str:
    with make_context():
        module = ir.Module.parse(text)
        run_pipeline(module, parse_pipeline(pipeline))
        return str(module)


def _shardings_in_order(text: str) -> list[tuple[str, str | None]]:
    """(where, mhlo.sharding text) for each function argument and result and each op, in walk order."""
    entries = []

    def attr_text(attrs, key):
        return ir.StringAttr(attrs[key]).value if key in attrs else None

    def record(op):
        op = op.operation
        if op.name == "func.func":
            name = ir.StringAttr(op.attributes["sym_name"]).value
            for key in ("arg_attrs", "res_attrs"):
                if key in op.attributes:
                    for index, entry in enumerate(ir.ArrayAttr(op.attributes[key])):
                        entries.append((f"@{name} {key}[{index}]", attr_text(ir.DictAttr(entry), MHLO_SHARDING)))
        elif op.name != "builtin.module":
            entries.append((op.name, attr_text(op.attributes, MHLO_SHARDING)))
        return ir.WalkResult.ADVANCE

    with make_context():
        ir.Module.parse(text).operation.walk(record)
    return entries


def _same_sharding(first: str | None, second: str | None) -> bool:
    if first is None or second is None:
        return first == second
    return xc.HloSharding.from_string(first) == xc.HloSharding.from_string(second)


def assert_round_trips(exported: str) -> None:
    again = _run(exported, f"{IMPORT},{EXPORT}")
    before, after = _shardings_in_order(exported), _shardings_in_order(again)
    assert [where for where, _ in after] == [where for where, _ in before], f"ops differ:\n{exported}\n---\n{again}"
    for (where, first), (_, second) in zip(before, after):
        xla_oracle.checks["round trip"] += 1
        assert _same_sharding(first, second), f"{where}: exported {first}, after import and export {second}\n{again}"


@FAST
@given(random_modules())
def test_random_modules_round_trip(module):
    assert_round_trips(_run(module, EXPORT))


@pytest.mark.slow
@SLOW
@given(random_modules())
def test_random_modules_round_trip_long(module):
    assert_round_trips(_run(module, EXPORT))


FAST_PROGRAMS = ["mlp_forward", "attention_forward", "shard_map_psum", "cond_branches", "multiple_axes_per_dimension"]


def _check_program(name: str) -> None:
    assert_round_trips(_run(jax_corpus.corpus()[name], f"sdy-propagation-pipeline,{EXPORT}"))


@pytest.mark.parametrize("name", FAST_PROGRAMS)
def test_propagated_jax_programs_round_trip(name):
    _check_program(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", jax_corpus.program_names())
def test_propagated_jax_programs_round_trip_whole_corpus(name):
    _check_program(name)
