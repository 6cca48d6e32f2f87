"""Runs a corpus program through `pysdy.jax.jit` on 8 devices and through plain JAX on one, and compares the results.

Plain JAX (XLA alone, the reference) runs in a child process (child_process.py): an abort there fails the test that
met it. pysdy's run stays in this process: JAX's arrays, caches and the hook cannot cross.
"""

from __future__ import annotations

import dataclasses

import jax
import numpy as np
from child_process import in_child_process
from corpus_programs import CorpusProgram, corpus_programs

import pysdy.jax

# Integer arguments of the corpus are indices, segment ids, offsets or branch indices; [0, 4) is in range for all.
_INDEX_BOUND = 4
# Programs whose matrices must be symmetric positive definite for the result to be defined.
_POSITIVE_DEFINITE_ARGUMENTS = {"cholesky_batched"}


def concrete_args(program: CorpusProgram, seed: int = 0):
    """Deterministic host values for the program's abstract arguments."""
    rng = np.random.default_rng(seed)

    def value(abstract: jax.ShapeDtypeStruct) -> np.ndarray:
        dtype = np.dtype(abstract.dtype)
        if dtype == np.bool_:
            return rng.integers(0, 2, abstract.shape).astype(np.bool_)
        if np.issubdtype(dtype, np.unsignedinteger):
            return rng.integers(0, 2**31, abstract.shape).astype(dtype)
        if np.issubdtype(dtype, np.integer):
            return rng.integers(0, _INDEX_BOUND, abstract.shape).astype(dtype)
        if np.issubdtype(dtype, np.complexfloating):
            return (rng.standard_normal(abstract.shape) + 1j * rng.standard_normal(abstract.shape)).astype(dtype)
        return rng.standard_normal(abstract.shape).astype(dtype)

    args = jax.tree.map(value, program.abstract_args)
    if program.name in _POSITIVE_DEFINITE_ARGUMENTS:
        args = tuple(_positive_definite(a) for a in args)
    return args


def _positive_definite(batch: np.ndarray) -> np.ndarray:
    """Each matrix m of the batch as m m^T + n I, which a Cholesky factorization accepts."""
    size = batch.shape[-1]
    return (batch @ np.swapaxes(batch, -1, -2) + size * np.eye(size, dtype=batch.dtype)).astype(batch.dtype)


@dataclasses.dataclass
class NumericsRun:
    """The outputs of both runs, the partitioned program's compiled form, and the arrays it returned."""

    partitioned: list[jax.Array]
    reference: list[np.ndarray]
    compiled: jax.stages.Compiled
    lowered: pysdy.jax.PysdyLowered


def run_both(program: CorpusProgram, reference_on_mesh: bool = False) -> NumericsRun:
    """pysdy's partitioned run and plain JAX's (`plain_jax_outputs`)."""
    args = concrete_args(program)
    jitted = pysdy.jax.jit(program.fn, **program.jit_kwargs())
    partitioned = jax.tree.leaves(jitted(*args))
    reference = plain_jax_outputs(program.name, reference_on_mesh)
    lowered = jitted.lower(*args)
    return NumericsRun(partitioned, reference, lowered.compile(), lowered)


@in_child_process
def plain_jax_outputs(name: str, on_mesh: bool) -> list[np.ndarray]:
    """Corpus program `name`'s outputs on `concrete_args` from plain JAX: unpartitioned on one device, or, for
    programs whose bodies name the mesh (shard_map, sharding constraints) and so cannot run on one device
    (`on_mesh`), `jax.jit` with the program's shardings (XLA's own Shardy partitioner)."""
    program = corpus_programs()[name]
    args = concrete_args(program)
    if on_mesh:
        outputs = jax.jit(program.fn, **program.jit_kwargs())(*args)
    else:
        outputs = jax.jit(program.fn)(*jax.device_put(args, jax.devices()[0]))
    return [np.asarray(output) for output in jax.tree.leaves(outputs)]


@in_child_process
def plain_jit_hlo(name: str) -> str:
    """The partitioned HLO text of corpus program `name` compiled by plain `jax.jit` with its shardings (XLA's own
    Shardy route)."""
    program = corpus_programs()[name]
    return jax.jit(program.fn, **program.jit_kwargs()).lower(*concrete_args(program)).compile().as_text()


def collective_kinds(hlo_text: str) -> set[str]:
    """The collective op kinds in a compiled (partitioned) HLO module's text."""
    kinds = ("all-reduce", "all-gather", "all-to-all", "collective-permute", "reduce-scatter")
    lines = hlo_text.splitlines()
    return {kind for kind in kinds for line in lines if f" {kind}(" in line or f" {kind}-start(" in line}
