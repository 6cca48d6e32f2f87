"""What jax 0.12's full `sdy-insert-explicit-reshards` does with the reshapes with overflow axes it leaves as they are:
a device's padded local operand block need not hold the elements of its local result block there, so a local reshape
would compute wrong values. Its `sdy-resolve-permutation-factors` reshards each such reshape so that the blocks
agree (or fails its verifier on the reshape's priorities), and pysdy's refuses them with an error on the reshape (it
does not implement resolving sharded reshapes): neither leaves the reshape to compute wrong values.
"""

from __future__ import annotations

import itertools
import math

import pytest
from export_inputs import print_after_pysdy
from jaxlib.mlir import ir
from oracle import cpp_output
from overflow_reshape_modules import overflow_reshape_module

from line_side import when
from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import Mesh, TensorSharding
from pysdy.passes.common.value_shardings import get_sharding

FULL = "func.func(sdy-insert-explicit-reshards{enable-full-version=true})"
RESOLVE = "sdy-resolve-permutation-factors"
SEEDS = range(300)


def _padded_blocks(shape: list[int], sharding: TensorSharding, mesh: Mesh) -> dict[tuple[int, ...], list]:
    """Per device (its coordinate on each mesh axis), its local block: the row-major global element index at each
    position, None where the block is padding."""
    blocks = {}
    for coordinates in itertools.product(*(range(axis.size) for axis in mesh.axes)):
        coordinate = {axis.name: value for axis, value in zip(mesh.axes, coordinates)}
        ranges = []
        for size, dim in zip(shape, sharding.dims):
            shard, shards = 0, 1
            for ref in dim.axes:
                pre = ref.sub_axis.pre_size if ref.sub_axis else 1
                shard = shard * ref.size(mesh) + coordinate[ref.name] // pre % ref.size(mesh)
                shards *= ref.size(mesh)
            local = -(-size // shards)
            ranges.append(range(shard * local, shard * local + local))
        strides = [math.prod(shape[index + 1 :]) for index in range(len(shape))]
        blocks[coordinates] = [
            None if any(p >= s for p, s in zip(position, shape)) else sum(p * t for p, t in zip(position, strides))
            for position in itertools.product(*ranges)
        ]
    return blocks


def _reshape_blocks_agree(text: str) -> bool:
    """Whether every device's padded operand and result blocks of the module's reshape hold the same elements."""
    with make_context():
        module = ir.Module.parse(text)
        mesh = Mesh.from_attr(module.body.operations[0].attributes["mesh"])
        reshape = next(op for op in module.body.operations[1].regions[0].blocks[0].operations if op.name == "stablehlo.reshape")
        operand, result = reshape.operands[0], reshape.results[0]
        sides = [
            _padded_blocks(list(ir.RankedTensorType(value.type).shape), get_sharding(value), mesh)
            for value in (operand, result)
        ]
    return sides[0] == sides[1]


def _kept_reshapes() -> list[str]:
    """The sample's modules whose reshape jaxlib's full version leaves as it is although its blocks do not agree."""
    kept = []
    for seed in SEEDS:
        text = overflow_reshape_module(seed)
        reshape_line = next(line.strip() for line in text.splitlines() if "stablehlo.reshape" in line)
        try:
            after = cpp_output(text, FULL)
        except ir.MLIRError:
            continue
        if reshape_line in after and not _reshape_blocks_agree(text):
            kept.append(text)
    return kept


def test_padded_blocks_of_an_uneven_split():
    """8 elements on 3 devices hold 3 each; 4 rows of 2 hold 2 rows (4 elements) each."""
    with make_context():
        mesh = Mesh.from_attr(ir.Attribute.parse('#sdy.mesh<["y"=3]>'))
        operand = TensorSharding.from_attr(ir.Attribute.parse('#sdy.sharding<@mesh, [{"y"}]>'))
        result = TensorSharding.from_attr(ir.Attribute.parse('#sdy.sharding<@mesh, [{"y"}, {}]>'))
    assert _padded_blocks([8], operand, mesh) == {(0,): [0, 1, 2], (1,): [3, 4, 5], (2,): [6, 7, None]}
    assert _padded_blocks([4, 2], result, mesh) == {(0,): [0, 1, 2, 3], (1,): [4, 5, 6, 7], (2,): [None] * 4}


@when("explicit_reshards_keep_reshapes_split_alike", True)
def test_kept_reshapes_are_resolved_by_the_cpp_and_refused_by_pysdy():
    kept = _kept_reshapes()
    resolved = 0
    for text in kept:
        after_full = cpp_output(text, FULL)
        assert print_after_pysdy(text, FULL) == after_full
        try:
            after_resolve = cpp_output(after_full, RESOLVE)
        except ir.MLIRError as error:
            assert "has a priority" in str(error), str(error)
        else:
            assert _reshape_blocks_agree(after_resolve), after_full
            resolved += 1
        with pytest.raises(ir.MLIRError) as refusal:
            print_after_pysdy(after_full, RESOLVE)
        first = refusal.value.error_diagnostics[0]
        reshape_line = 1 + next(i for i, line in enumerate(after_full.splitlines()) if "stablehlo.reshape" in line)
        assert str(first.location).startswith(f'loc("-":{reshape_line}:'), (str(first.location), after_full)
        assert first.message == (
            "sdy-resolve-permutation-factors: pysdy does not implement resolving a sharded 'stablehlo.reshape' "
            "(jax 0.11 and later)"
        )
    assert resolved >= 5, (resolved, len(kept))
