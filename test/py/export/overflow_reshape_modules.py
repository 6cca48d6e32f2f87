"""Random reshapes whose shardings leave axes that do not divide the factors they shard (overflow axes): one reshape
between two groupings of the same dimension sizes, on a mesh of axes of sizes 2 to 6 (3 and 6 overflow the factors of
2, 4 and 8), with random shardings (sub-axes, open dimensions, priorities, replicated axes) on its operand and result,
or half the time the same axes on a dimension starting at the same element on both sides (which split the elements
alike if every dimension divided evenly).

A dimension spans at most two of the sizes, so that no projection leaves out a factor the C++ would write to (it
writes past the end of its factor map there: undefined behaviour, not compared).

`python overflow_reshape_modules.py SEED` prints one.
"""

from __future__ import annotations

import math
import random
import sys

from jaxlib.mlir import ir

from propagation.single_op_modules import random_sharding, tensor
from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import AxisRef, DimSharding, Mesh, MeshAxis, TensorSharding, TensorShardingPerValue

_AXIS_SIZES = [2, 2, 3, 3, 4, 6]
_DIM_SIZES = [1, 2, 2, 3, 4, 6, 8]


def _grouping(rng: random.Random, sizes: list[int]) -> list[int]:
    """Where each dimension starts in `sizes`: each is one size or the product of two consecutive ones."""
    starts, index = [], 0
    while index < len(sizes):
        starts.append(index)
        index += 2 if index + 1 < len(sizes) and rng.random() < 0.5 else 1
    return starts


def _shape(sizes: list[int], starts: list[int]) -> list[int]:
    ends = starts[1:] + [len(sizes)]
    return [math.prod(sizes[start:end]) for start, end in zip(starts, ends)]


def _same_axes_at(rng: random.Random, mesh: Mesh, starts: tuple[list[int], list[int]]) -> tuple[TensorSharding, ...]:
    """Closed shardings of the operand and the result with the same random axes on a dimension both start there."""
    common = sorted(set(starts[0]) & set(starts[1]))
    start = rng.choice(common)
    names = [axis.name for axis in mesh.axes]
    axes = tuple(AxisRef(name) for name in rng.sample(names, rng.randint(1, len(names))))
    replicated = tuple(AxisRef(name) for name in names if AxisRef(name) not in axes and rng.random() < 0.3)
    return tuple(
        TensorSharding(
            "mesh", tuple(DimSharding(axes if dim_start == start else (), True) for dim_start in side), replicated
        )
        for side in starts
    )


def _sharding(rng: random.Random, mesh: Mesh, rank: int) -> TensorSharding:
    """A random sharding without unreduced axes (no sharding: fully closed)."""
    sharding = random_sharding(rng, mesh, rank) or TensorSharding.fully_closed("mesh", rank)
    return TensorSharding(sharding.mesh, sharding.dims, sharding.replicated, ())


def _drawn_module(rng: random.Random) -> str:
    names = ["x", "y", "z"][: rng.randint(1, 3)]
    mesh = Mesh(tuple(MeshAxis(name, rng.choice(_AXIS_SIZES)) for name in names))
    sizes = [rng.choice(_DIM_SIZES) for _ in range(rng.randint(1, 4))]
    starts = (_grouping(rng, sizes), _grouping(rng, sizes))
    operand, result = (_shape(sizes, side) for side in starts)
    if rng.random() < 0.5:
        operand_sharding, result_sharding = _same_axes_at(rng, mesh, starts)
    else:
        operand_sharding, result_sharding = _sharding(rng, mesh, len(operand)), _sharding(rng, mesh, len(result))
    mesh_text = ", ".join(f'"{axis.name}"={axis.size}' for axis in mesh.axes)
    per_value = TensorShardingPerValue((result_sharding,)).to_attr()
    return (
        f"sdy.mesh @mesh = <[{mesh_text}]>\n"
        f"func.func @main(%arg0: {tensor(operand)} {{sdy.sharding = {operand_sharding.to_attr()}}}) -> "
        f"{tensor(result)} {{\n"
        f"  %0 = stablehlo.reshape %arg0 {{sdy.sharding = {per_value}}} : ({tensor(operand)}) -> {tensor(result)}\n"
        f"  return %0 : {tensor(result)}\n"
        f"}}\n"
    )


def overflow_reshape_module(seed: int) -> str:
    """The first of the seed's draws that verifies (a random sharding may not, e.g. an empty closed dimension with a
    priority)."""
    rng = random.Random(f"overflow-reshape-{seed}")
    with make_context():
        while True:
            text = _drawn_module(rng)
            try:
                ir.Module.parse(text)
            except ir.MLIRError:
                continue
            return text


if __name__ == "__main__":
    print(overflow_reshape_module(int(sys.argv[1])))
