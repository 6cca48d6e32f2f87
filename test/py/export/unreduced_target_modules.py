"""Random modules where a value meets a sharding with unreduced axes it does not have: a function result, a reshard
of an argument, or a reshard of an op's result; on one mesh of sub-axes, open and closed dimensions and replicated
axes, so that sharded-to-unreduced, replicated-to-unreduced and the reshards before them all occur.

`python unreduced_target_modules.py SEED` prints one.
"""

from __future__ import annotations

import random
import sys

from jaxlib.mlir import ir

from pysdy.dialects.context import make_context


def _factorization(size: int, rng: random.Random) -> list[int]:
    factors = []
    while size > 1:
        factor = rng.choice([d for d in range(2, size + 1) if size % d == 0])
        factors.append(factor)
        size //= factor
    return factors


def _axis_pieces(name: str, size: int, rng: random.Random) -> list[str]:
    """The axis whole, or cut into sub-axes along a random factorization."""
    factors = _factorization(size, rng)
    if len(factors) < 2 or rng.random() < 0.5:
        return [f'"{name}"']
    pieces, pre = [], 1
    for factor in factors:
        pieces.append(f'"{name}":({pre}){factor}')
        pre *= factor
    return pieces


def _sharding(rng: random.Random, pieces: list[str], rank: int, unreduced_share: float) -> str:
    pool = list(pieces)
    rng.shuffle(pool)
    dims: list[list[str]] = [[] for _ in range(rank)]
    replicated, unreduced = [], []
    for piece in pool:
        draw = rng.random()
        if draw < unreduced_share:
            unreduced.append(piece)
        elif draw < unreduced_share + 0.1:
            replicated.append(piece)
        elif draw < 0.8:
            dims[rng.randrange(rank)].append(piece)
    texts = []
    for axes in dims:
        entries = axes + (["?"] if rng.random() < 0.3 else [])
        texts.append("{" + ", ".join(entries) + "}")
    text = "<@mesh, [" + ", ".join(texts) + "]"
    if replicated:
        text += ", replicated={" + ", ".join(replicated) + "}"
    if unreduced:
        text += ", unreduced={" + ", ".join(unreduced) + "}"
    return text + ">"


def _draw(rng: random.Random) -> str:
    axes = [(name, rng.choice([2, 2, 4, 3, 1])) for name in ("x", "y", "z")[: rng.randint(1, 3)]]
    pieces = [piece for name, size in axes for piece in _axis_pieces(name, size, rng)]
    rank = rng.randint(1, 2)
    tensor = "tensor<" + "x".join(str(rng.choice([4, 8, 12, 24])) for _ in range(rank)) + "xf32>"
    source = _sharding(rng, pieces, rank, rng.choice([0.0, 0.0, 0.2]))
    target = _sharding(rng, pieces, rank, 0.4)
    mesh = "sdy.mesh @mesh = <[" + ", ".join(f'"{name}"={size}' for name, size in axes) + "]>\n"
    kind = rng.randrange(3)
    if kind == 0:
        return mesh + (
            f"func.func @main(%arg0: {tensor}) -> ({tensor} {{sdy.sharding = #sdy.sharding{target}}}) {{\n"
            f"  %0 = stablehlo.negate %arg0 {{sdy.sharding = #sdy.sharding_per_value<[{source}]>}} : {tensor}\n"
            f"  return %0 : {tensor}\n}}\n"
        )
    if kind == 1:
        return mesh + (
            f"func.func @main(%arg0: {tensor} {{sdy.sharding = #sdy.sharding{source}}}) -> {tensor} {{\n"
            f"  %0 = sdy.reshard %arg0 {target} : {tensor}\n"
            f"  return %0 : {tensor}\n}}\n"
        )
    return mesh + (
        f"func.func @main(%arg0: {tensor}) -> {tensor} {{\n"
        f"  %0 = stablehlo.negate %arg0 {{sdy.sharding = #sdy.sharding_per_value<[{source}]>}} : {tensor}\n"
        f"  %1 = sdy.reshard %0 {target} : {tensor}\n"
        f"  return %1 : {tensor}\n}}\n"
    )


def is_valid_module(text: str) -> bool:
    """Whether `text` parses and verifies."""
    with make_context():
        try:
            ir.Module.parse(text)
        except ir.MLIRError:
            return False
    return True


def unreduced_target_module(seed: int) -> str:
    """Of the modules drawn from `seed`, the first that verifies and has unreduced axes somewhere."""
    rng = random.Random(f"unreduced-target-{seed}")
    while True:
        text = _draw(rng)
        if "unreduced" in text and is_valid_module(text):
            return text


if __name__ == "__main__":
    print(unreduced_target_module(int(sys.argv[1])))
