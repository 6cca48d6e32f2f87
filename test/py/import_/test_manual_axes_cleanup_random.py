"""`sdy-manual-axes-cleanup`, C++ and pysdy, on random manual computations: the in/out shardings name the
common mesh in every way the verifier allows (its symbol, a second symbol of the same mesh, an inlined copy,
an empty mesh by symbol or inlined), use some of the manual axes (whole, as sub-axes, replicated), and the
manual axes come in any order; sometimes a second computation takes the first one's result."""

from __future__ import annotations

import random

import pytest

from import_oracle import run_cpp, run_py

AXES = (("a", 2), ("b", 4), ("c", 2))
MESH = "[" + ", ".join(f'"{name}"={size}' for name, size in AXES) + "]"
HEADER = f"""sdy.mesh @mesh = <{MESH}>
sdy.mesh @mesh_copy = <{MESH}>
sdy.mesh @empty = <[]>
"""
NAMED = ("@mesh", "@mesh_copy", f"mesh<{MESH}>")
EMPTY = ("@empty", "mesh<[]>")
SIZE = 16


def _axis_pieces(name: str, size: int, rng: random.Random) -> list[str]:
    """The axis whole, or one of its sub-axes."""
    if size == 4 and rng.random() < 0.4:
        return [rng.choice([f'"{name}":(1)2', f'"{name}":(2)2'])]
    return [f'"{name}"']


def _piece_size(piece: str) -> int:
    if ":(" in piece:
        return int(piece.rsplit(")", 1)[1])
    return dict(AXES)[piece.strip('"')]


def _sharding(mesh: str, manual: list[str], rng: random.Random, rank: int) -> tuple[str, list[int]]:
    """A sharding on `mesh` whose dims start with manual axes, and the local (per-device) dim sizes."""
    if mesh in EMPTY:
        return f"<{mesh}, [{', '.join('{}' for _ in range(rank))}]>", [SIZE] * rank
    dims: list[list[str]] = [[] for _ in range(rank)]
    local = [SIZE] * rank
    replicated: list[str] = []
    free = [name for name, _ in AXES if name not in manual]
    for name in manual:
        draw = rng.random()
        if draw < 0.4:
            dim = rng.randrange(rank)
            pieces = _axis_pieces(name, dict(AXES)[name], rng)
            dims[dim] += pieces
            local[dim] //= _piece_size(pieces[0])
        elif draw < 0.55:
            replicated += _axis_pieces(name, dict(AXES)[name], rng)
    for name in free:
        if rng.random() < 0.3:
            dims[rng.randrange(rank)].append(f'"{name}"')
        elif rng.random() < 0.2:
            replicated.append(f'"{name}"')
    rng.shuffle(replicated)
    order = {name: index for index, (name, _) in enumerate(AXES)}
    replicated.sort(key=lambda piece: (order[piece.split('"')[1]], piece))
    text = f"<{mesh}, [" + ", ".join("{" + ", ".join(axes) + "}" for axes in dims) + "]"
    if replicated:
        text += ", replicated={" + ", ".join(replicated) + "}"
    return text + ">", local


def _computation(operands: list[str], mesh: str, rng: random.Random, depth: int) -> tuple[list[str], list[str]]:
    """The lines of a manual computation on `operands` (each tensor<16x16xf32>) and its result names; its
    shardings spell the named `mesh` in any of the equivalent ways, or an empty mesh."""
    manual = [name for name, _ in AXES if rng.random() < 0.6] or [AXES[1][0]]
    rng.shuffle(manual)
    spellings = [mesh, mesh, *NAMED, *EMPTY]
    chosen = [rng.choice(spellings) for _ in range(len(operands) + rng.randint(1, 2))]
    if all(spelling in EMPTY for spelling in chosen):
        chosen[rng.randrange(len(chosen))] = mesh  # one names the mesh, so that the manual axes are known
    shardings = [_sharding(spelling, manual, rng, 2) for spelling in chosen]
    ins, outs = shardings[: len(operands)], shardings[len(operands) :]
    tag = f"d{depth}"
    args = ", ".join(f"%{tag}_{i}: tensor<{local[0]}x{local[1]}xf32>" for i, (_, local) in enumerate(ins))
    body = []
    returned = []
    for index, (_, local) in enumerate(outs):
        name = f"%{tag}_c{index}"
        body.append(f"{name} = stablehlo.constant dense<0.0> : tensor<{local[0]}x{local[1]}xf32>")
        returned.append(name)
    types_in = ", ".join("tensor<16x16xf32>" for _ in operands)
    types_out = ", ".join("tensor<16x16xf32>" for _ in outs)
    results = f"%{tag}_r"
    names = [f"{results}#{i}" for i in range(len(outs))] if len(outs) > 1 else [results]
    count = f":{len(outs)}" if len(outs) > 1 else ""
    lines = [
        f"{results}{count} = sdy.manual_computation({', '.join(operands)}) "
        f"in_shardings=[{', '.join(t for t, _ in ins)}] out_shardings=[{', '.join(t for t, _ in outs)}] "
        "manual_axes={" + ", ".join(f'"{name}"' for name in manual) + f"}} ({args}) {{",
        *("  " + line for line in body),
        f"  sdy.return {', '.join(returned)} : {', '.join(f'tensor<{l[0]}x{l[1]}xf32>' for _, l in outs)}",
        f"}} : ({types_in}) -> ({types_out})",
    ]
    return lines, names


def random_cleanup_module(seed: int) -> str:
    rng = random.Random(seed)
    mesh = rng.choice(NAMED)
    operands = ["%arg0", "%arg1"][: rng.randint(1, 2)]
    lines, names = _computation(operands, mesh, rng, 0)
    if rng.random() < 0.3:
        second, second_names = _computation(names[:1], mesh, rng, 1)
        lines += second
        names = second_names + names[1:]
    body = "".join(f"  {line}\n" for line in lines)
    types = ", ".join("tensor<16x16xf32>" for _ in names)
    return (
        HEADER
        + "func.func @main(%arg0: tensor<16x16xf32>, %arg1: tensor<16x16xf32>) -> ("
        + types
        + ") {\n"
        + body
        + f"  return {', '.join(names)} : {types}\n}}\n"
    )


@pytest.mark.parametrize("seed", range(150))
def test_cleanup_matches_cpp(seed):
    text = random_cleanup_module(seed)
    assert run_py(text, "sdy-manual-axes-cleanup") == run_cpp(text, "sdy-manual-axes-cleanup"), text


def test_random_modules_are_valid_and_rewritten():
    """The modules verify, and the C++ pass changes most of them, so the agreement above means something."""
    outcomes = [run_cpp(random_cleanup_module(seed), "sdy-manual-axes-cleanup") for seed in range(150)]
    assert not [o for o in outcomes if o.startswith("error")]
    changed = sum(o != run_cpp(random_cleanup_module(seed), "") for seed, o in enumerate(outcomes))
    assert changed > 100
