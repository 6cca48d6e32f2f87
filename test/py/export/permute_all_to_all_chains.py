"""Random modules of a collective permute followed by all-to-alls: the input of `sdy-optimize-collectives`
tests. Some are rewritten by the C++ pass and some are not (a permute of axes not moved, a dimension not divisible,
a move off another dimension, an open/closed change, an all-to-all with a second user, ...); some do not verify
and are skipped by the tests."""

from __future__ import annotations

import random

AxisRef = tuple[str, "tuple[int, int] | None"]


def _axis(ref: AxisRef) -> str:
    name, sub = ref
    return f'"{name}"' if sub is None else f'"{name}":({sub[0]}){sub[1]}'


def _dims(axes_per_dim: list[list[AxisRef]], closed: list[bool]) -> str:
    dims = []
    for axes, is_closed in zip(axes_per_dim, closed):
        text = ", ".join(map(_axis, axes))
        dims.append("{" + text + ("" if is_closed else (", ?" if axes else "?")) + "}")
    return "[" + ", ".join(dims) + "]"


def chain_module(rng: random.Random, name: str) -> str:
    """A function `@name` whose argument is sharded on 2-4 axes (or sub-axes) of one dimension, permuted, then
    moved off by 0-3 all-to-alls of one or two axes each."""
    axis_names = ["x", "y", "z", "w"][: rng.randint(2, 4)]
    sizes = {axis: rng.choice([2, 2, 3, 4]) for axis in axis_names}
    axes: list[AxisRef] = []
    for axis in axis_names:
        axes += [(axis, (1, 2)), (axis, (2, 2))] if sizes[axis] == 4 and rng.random() < 0.3 else [(axis, None)]
    rank = rng.randint(1, 3)
    split_dim = rng.randrange(rank)
    permuted = rng.sample(axes, rng.randint(2, min(4, len(axes))))
    spare = [ref for ref in axes if ref not in permuted]
    in_axes: list[list[AxisRef]] = [[] for _ in range(rank)]
    in_axes[split_dim] = list(permuted)
    for dim in range(rank):
        if dim != split_dim and spare and rng.random() < 0.3:
            in_axes[dim].append(spare.pop())
    closed = [rng.random() < 0.85 for _ in range(rank)]

    def sharded_size(refs: list[AxisRef]) -> int:
        size = 1
        for axis, sub in refs:
            size *= sub[1] if sub else sizes[axis]
        return size

    shape = [
        sharded_size(refs) * rng.choice([1, 1, 2, 3, 4]) if rng.random() < 0.9 else rng.choice([1, 2, 6, 10])
        for refs in in_axes
    ]
    cp_axes = [list(refs) for refs in in_axes]
    order = list(permuted)
    while order == permuted and rng.random() < 0.95:
        rng.shuffle(order)
    cp_axes[split_dim] = order
    cp_closed = list(closed)
    if rng.random() < 0.05:
        cp_closed[split_dim] = not cp_closed[split_dim]
    if rank > 1 and rng.random() < 0.05:
        other = (split_dim + 1) % rank
        cp_axes[other] = cp_axes[other][::-1] + spare[:1]
    tensor = "tensor<" + "x".join(map(str, shape)) + "xf32>"
    lines = [f"  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, {_dims(cp_axes, cp_closed)}> : {tensor}"]
    current = [list(refs) for refs in cp_axes]
    for index in range(rng.randint(0, 3) if rank > 1 else 0):
        src = split_dim if rng.random() < 0.9 else rng.randrange(rank)
        if not current[src]:
            break
        tgt = rng.choice([dim for dim in range(rank) if dim != src])
        count = 2 if len(current[src]) >= 2 and rng.random() < 0.2 else 1
        moved = current[src][-count:]
        current[src] = current[src][:-count]
        current[tgt] = current[tgt] + moved
        lines.append(
            f'  %{index + 1} = sdy.all_to_all [{{{", ".join(map(_axis, moved))}}}: {src}->{tgt}] %{index} '
            f"out_sharding=<@mesh, {_dims(current, cp_closed)}> : {tensor}"
        )
    results = [f"%{len(lines) - 1}"]
    if len(lines) > 1 and rng.random() < 0.1:
        results.append(f"%{rng.randrange(len(lines) - 1)}")
    types = ", ".join([tensor] * len(results))
    mesh = ", ".join(f'"{axis}"={sizes[axis]}' for axis in axis_names)
    arg_sharding = f"#sdy.sharding<@mesh, {_dims(in_axes, closed)}>"
    return (
        f"sdy.mesh @mesh = <[{mesh}]>\n"
        f"func.func @{name}(%arg0: {tensor} {{sdy.sharding = {arg_sharding}}}) -> ({types}) {{\n"
        + "\n".join(lines)
        + f"\n  return {', '.join(results)} : {types}\n}}\n"
    )
