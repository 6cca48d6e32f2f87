"""`sdy-update-non-divisible-input-output-shardings`, C++ and pysdy, on random manual computations whose in/out
shardings put free axes (whole or sub-axes, open or closed dims) that may not divide what the manual axes leave
of each dimension, at the top level and nested."""

from __future__ import annotations

import random

import pytest
from export_inputs import assert_same_output
from oracle import cpp_output

PASS = "sdy-update-non-divisible-input-output-shardings"
AXES = {"a": 2, "b": 4, "c": 3}
HEADER = 'sdy.mesh @mesh = <["a"=2, "b"=4, "c"=3]>\n'
DIM_SIZES = (4, 5, 6, 8, 10, 12, 24)


def _free_piece(name: str, rng: random.Random) -> tuple[str, int]:
    if name == "b" and rng.random() < 0.3:
        return rng.choice([('"b":(1)2', 2), ('"b":(2)2', 2)])
    return f'"{name}"', AXES[name]


def _sharding(shape: tuple[int, ...], manual: list[str], free: list[str], rng: random.Random) -> tuple[str, tuple[int, ...]]:
    """A sharding whose dims start with manual axes that divide them, then random free axes; and the local shape."""
    dims, local = [], []
    unused_free = list(free)
    rng.shuffle(unused_free)
    manual_left = list(manual)
    for size in shape:
        axes, divisor = [], 1
        for name in list(manual_left):
            if size % (divisor * AXES[name]) == 0 and rng.random() < 0.5:
                axes.append(f'"{name}"')
                divisor *= AXES[name]
                manual_left.remove(name)
        while unused_free and rng.random() < 0.5:
            piece, _ = _free_piece(unused_free.pop(), rng)
            axes.append(piece)
        is_open = rng.random() < 0.25
        dims.append("{" + ", ".join(axes + (["?"] if is_open else [])) + "}")
        local.append(size // divisor)
    return "<@mesh, [" + ", ".join(dims) + "]>", tuple(local)


def _tensor(shape: tuple[int, ...]) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


def _computation(operand: str, shape: tuple[int, ...], axes: list[str], rng: random.Random, tag: str) -> list[str]:
    """A manual computation over some of `axes` on `operand`, returning a tensor of the same shape."""
    manual = [name for name in axes if rng.random() < 0.5] or axes[:1]
    free = [name for name in axes if name not in manual]
    in_sharding, in_local = _sharding(shape, manual, free, rng)
    out_sharding, out_local = _sharding(shape, manual, free, rng)
    body = []
    if len(free) > 0 and rng.random() < 0.4:
        body += _computation(f"%{tag}_arg", in_local, free, rng, tag + "n")
    body.append(f"%{tag}_c = stablehlo.constant dense<1.0> : {_tensor(out_local)}")
    body.append(f"sdy.return %{tag}_c : {_tensor(out_local)}")
    return [
        f"%{tag} = sdy.manual_computation({operand}) in_shardings=[{in_sharding}] out_shardings=[{out_sharding}] "
        "manual_axes={" + ", ".join(f'"{name}"' for name in manual) + f"}} (%{tag}_arg: {_tensor(in_local)}) {{",
        *("  " + line for line in body),
        f"}} : ({_tensor(shape)}) -> {_tensor(shape)}",
    ]


def random_module(seed: int) -> str:
    rng = random.Random(seed)
    shape = tuple(rng.choice(DIM_SIZES) for _ in range(rng.randint(1, 2)))
    lines = _computation("%arg0", shape, list(AXES), rng, "m")
    body = "".join(f"  {line}\n" for line in lines)
    return HEADER + f"func.func @main(%arg0: {_tensor(shape)}) -> {_tensor(shape)} {{\n{body}  return %m : {_tensor(shape)}\n}}\n"


@pytest.mark.parametrize("seed", range(120))
def test_update_matches_cpp(seed):
    assert_same_output(random_module(seed), PASS)


def test_random_modules_exercise_the_pass():
    """The C++ pass changes many of the modules, so the agreement above means something."""
    changed = sum(cpp_output(random_module(s), PASS) != cpp_output(random_module(s), "") for s in range(120))
    assert changed > 40, changed
