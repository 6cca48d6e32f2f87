"""XLA's own HloSharding parser and printer (jaxlib's xla_client), the oracle for pysdy's hlo_sharding.

XLA's translations of whole modules run in a child process (child_process.py): an abort there fails the test that
met it. The HloSharding parser runs in this process, on text it takes without aborting.
"""

from __future__ import annotations

import collections

import pytest

from child_process import in_child_process
from jax._src.lib import xla_client as xc
from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.context import make_context
from pysdy.dialects.hlo_sharding import HloSharding, Kind, OpMetadata, SubgroupType

# How many pysdy results this process checked against XLA (reported by conftest.py).
checks: collections.Counter = collections.Counter()


def parse(text: str) -> xc.HloSharding:
    """XLA's parse; only for text XLA accepts without aborting the process."""
    return xc.HloSharding.from_string(text)


def is_tuple(xla: xc.HloSharding) -> bool:
    # Tile queries on a tuple abort the process, so ask the proto first.
    return xla.to_proto().type == xc.OpSharding.Type.TUPLE


def check(pysdy_value, xla_value, what: str) -> None:
    checks["xla"] += 1
    assert pysdy_value == xla_value, f"{what}: pysdy {pysdy_value!r} != XLA {xla_value!r}"


def assert_matches(sharding: HloSharding, xla: xc.HloSharding) -> None:
    """pysdy's value is XLA's: same printed text, kind, tiles, device order and subgroups."""
    check(sharding.to_text(include_metadata=False), str(xla), "printed text")
    check(sharding.kind is Kind.TUPLE, is_tuple(xla), f"is tuple ({xla})")
    if sharding.kind is Kind.TUPLE:
        elements = xla.tuple_elements()
        check(len(sharding.elements), len(elements), f"tuple size ({xla})")
        for element, xla_element in zip(sharding.elements, elements):
            assert_matches(element, xla_element)
        return
    flags = [
        (Kind.REPLICATED, xla.is_replicated()),
        (Kind.MANUAL, xla.is_manual()),
        (Kind.UNKNOWN, xla.is_unknown()),
        (Kind.UNREDUCED, xla.is_unreduced()),
        (Kind.MAXIMAL, xla.is_maximal()),  # XLA's is_maximal also holds for replicated
        (Kind.TILED, xla.is_tiled()),
    ]
    check(sharding.kind, next(kind for kind, is_kind in flags if is_kind), f"kind ({xla})")
    if sharding.kind is Kind.MAXIMAL:
        check([sharding.device], xla.tile_assignment_devices(), f"maximal device ({xla})")
    if sharding.kind is Kind.TILED:
        tiles = sharding.tile_assignment
        check(list(tiles.devices), xla.tile_assignment_devices(), f"device order ({xla})")
        check(list(tiles.dims), xla.tile_assignment_dimensions(), f"tile shape ({xla})")
        check(tiles.is_iota, xla.is_tile_assignment_iota(), f"iota form ({xla})")
        check(sharding.replicate_on_last_tile_dim, xla.replicate_on_last_tile_dim(), f"last_tile_dim_replicate ({xla})")
        check([t.value for t in sharding.subgroup_types], [t.name.lower() for t in xla.subgroup_types()], f"subgroups ({xla})")


def assert_round_trip(text: str) -> HloSharding:
    """pysdy agrees with XLA on `text`, and again on the text pysdy prints for it; returns pysdy's value.

    The printed text is usually a fixed point, but not always in XLA either
    (see test_xla_text_is_not_always_a_fixed_point), so the second parse is
    compared with XLA's second parse rather than with the first.
    """
    sharding = HloSharding.from_text(text)
    assert_matches(sharding, parse(text))
    printed = sharding.to_text()
    try:
        xla_again = parse(printed)
    except xc.XlaRuntimeError:
        # XLA can print text it cannot read back (`devices=[]`); pysdy refuses it too.
        checks["xla"] += 1
        with pytest.raises(ValueError):
            HloSharding.from_text(printed)
        return sharding
    assert_matches(HloSharding.from_text(printed), xla_again)
    return sharding


REDUCTION_METADATA_TYPE = "sdy::reduction_op"


def as_translated(sharding: HloSharding) -> HloSharding:
    """The sharding as the installed XLA's translation through HLO writes it back: from jaxlib 0.11 an unreduced
    sharding without a reduction entry in its metadata gains `{op_type="sdy::reduction_op" op_name="SUM"}`."""
    if sharding.kind is Kind.TUPLE:
        return HloSharding.tuple_of([as_translated(element) for element in sharding.elements])
    unreduced = sharding.kind is Kind.UNREDUCED or SubgroupType.UNREDUCED in sharding.subgroup_types
    if not versions.installed().xla_translation_records_unreduced_reduction or not unreduced:
        return sharding
    if any(entry.op_type == REDUCTION_METADATA_TYPE for entry in sharding.metadata):
        return sharding
    return sharding.with_metadata(sharding.metadata + (OpMetadata(op_type=REDUCTION_METADATA_TYPE, op_name="SUM"),))


def printed_with_metadata(texts: list[str]) -> list[str]:
    """XLA's text of each sharding including metadata, as XLA writes `mhlo.sharding`.

    `str(xc.HloSharding)` drops metadata, so each sharding goes on a custom call
    of a module that XLA converts to HLO and back.
    """
    calls, results, types = [], [], []
    for i, text in enumerate(texts):
        xla = parse(text)
        elements = xla.tuple_elements() if is_tuple(xla) else [xla]
        assert elements, "an empty tuple sharding has no metadata to print"
        element_types = [_tensor_type(e) for e in elements]
        escaped = text.replace("\\", "\\\\").replace('"', '\\"')
        if len(elements) == 1 and is_tuple(xla):
            # A one-element tuple needs a tuple-typed result.
            element_types = [f"tuple<{element_types[0]}>"]
        lhs = f"%s{i}:{len(element_types)}" if len(element_types) > 1 else f"%s{i}"
        calls.append(f'    {lhs} = stablehlo.custom_call @s{i}() {{mhlo.sharding = "{escaped}"}} : () -> ({", ".join(element_types)})')
        results += [f"%s{i}#{j}" for j in range(len(element_types))] if len(element_types) > 1 else [f"%s{i}"]
        types += element_types
    module = (
        "module @m attributes {mhlo.num_partitions = 64 : i32} {\n"
        f"  func.func public @main() -> ({', '.join(types)}) {{\n"
        + "\n".join(calls)
        + f"\n    return {', '.join(results)} : {', '.join(types)}\n  }}\n}}"
    )
    round_tripped = through_hlo(module)
    printed = {}

    def record(op):
        if op.name == "stablehlo.custom_call":
            target = ir.StringAttr(op.attributes["call_target_name"]).value
            printed[target] = ir.StringAttr(op.attributes["mhlo.sharding"]).value
        return ir.WalkResult.ADVANCE

    with make_context():
        ir.Module.parse(round_tripped).operation.walk(record)
    checks["xla"] += len(texts)
    return [printed[f"s{i}"] for i in range(len(texts))]


@in_child_process
def hlo_text(stablehlo_text: str) -> str:
    """XLA's translation of a StableHLO module to HLO, as text."""
    return _to_hlo(stablehlo_text).as_hlo_text()


@in_child_process
def through_hlo(stablehlo_text: str) -> str:
    """A StableHLO module translated to HLO and back by XLA."""
    return xc._xla.mlir.xla_computation_to_mlir_module(_to_hlo(stablehlo_text))


def _to_hlo(stablehlo_text: str):
    return xc._xla.mlir.mlir_module_to_xla_computation(stablehlo_text, use_tuple_args=False, return_tuple=False)


def _tensor_type(xla: xc.HloSharding) -> str:
    """A tensor type the sharding is valid for: one dim per data tile dim."""
    rank = 0
    if xla.is_tiled():
        subgroups = len(xla.subgroup_types()) + int(xla.replicate_on_last_tile_dim())
        rank = len(xla.tile_assignment_dimensions()) - subgroups
    return "tensor<" + "8x" * rank + "f32>"
