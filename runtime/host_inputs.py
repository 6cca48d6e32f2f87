"""Host inputs for main: `arg0..argN` checked against its signature, read from .npz, or made deterministically."""

from __future__ import annotations

import numpy as np

from pysdy.runtime.errors import RuntimeInputError
from pysdy.runtime.module_info import ModuleInfo, TensorSpec


def argument_name(index: int) -> str:
    return f"arg{index}"


def result_name(index: int) -> str:
    return f"result{index}"


def checked_inputs(info: ModuleInfo, named: dict[str, np.ndarray]) -> list[np.ndarray]:
    """main's arguments in order from `named`; every name, shape and dtype must be exactly what main declares."""
    expected = [argument_name(i) for i in range(len(info.arguments))]
    missing = [name for name in expected if name not in named]
    unexpected = sorted(set(named) - set(expected))
    if missing or unexpected:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(missing))
        if unexpected:
            parts.append("unexpected " + ", ".join(unexpected))
        raise RuntimeInputError(
            f"inputs must be named {', '.join(expected) or '(none: main takes no arguments)'}: {'; '.join(parts)}"
        )
    arrays = []
    for name, spec in zip(expected, info.arguments):
        array = np.asarray(named[name])
        if array.shape != spec.shape or array.dtype != spec.dtype:
            given = TensorSpec(array.shape, array.dtype).describe()
            raise RuntimeInputError(f"input {name} is {given}, but main's argument is {spec.describe()}")
        arrays.append(array)
    return arrays


def read_inputs(path: str, info: ModuleInfo) -> list[np.ndarray]:
    try:
        with np.load(path, allow_pickle=False) as archive:
            named = {name: archive[name] for name in archive.files}
    except (OSError, ValueError) as error:
        raise RuntimeInputError(f"could not read inputs from '{path}': {error}") from None
    return checked_inputs(info, named)


def random_array(spec: TensorSpec, rng: np.random.Generator) -> np.ndarray:
    """Normal floats; integers in [0, 8) so they are valid indices of most dimensions; random booleans."""
    kind = spec.dtype.kind
    if kind == "b":
        return rng.integers(0, 2, spec.shape).astype(spec.dtype)
    if kind in "iu":
        return rng.integers(0, 8, spec.shape).astype(spec.dtype)
    if kind == "c":
        return (rng.standard_normal(spec.shape) + 1j * rng.standard_normal(spec.shape)).astype(spec.dtype)
    return rng.standard_normal(spec.shape).astype(spec.dtype)


def random_inputs(info: ModuleInfo, seed: int = 0) -> list[np.ndarray]:
    """The same inputs for the same signature and seed, every run."""
    rng = np.random.default_rng(seed)
    return [random_array(spec, rng) for spec in info.arguments]


def write_outputs(path: str, outputs: list[np.ndarray]) -> None:
    try:
        np.savez(path, **{result_name(i): array for i, array in enumerate(outputs)})
    except OSError as error:
        raise RuntimeInputError(f"could not write outputs to '{path}': {error.strerror}") from None
