"""The JAX corpus (test/py/jax_corpus.py) as callable programs: function, mesh, argument shardings, abstract arguments.

The corpus builders lower their programs through `jax_corpus._lower`; running a
builder with that function swapped for a recorder gives back what it would have
lowered, so the numerics tests run exactly the corpus's programs.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Callable

import jax
import jax_corpus


@dataclasses.dataclass(frozen=True)
class CorpusProgram:
    """One corpus program, ready for `jax.jit(fn, in_shardings=..., out_shardings=...)(*args)`."""

    name: str
    fn: Callable
    mesh: jax.sharding.Mesh
    in_shardings: tuple
    out_shardings: Any  # None when the corpus leaves the results to propagation
    abstract_args: tuple

    def jit_kwargs(self) -> dict[str, Any]:
        kwargs = {"in_shardings": self.in_shardings}
        if self.out_shardings is not None:
            kwargs["out_shardings"] = self.out_shardings
        return kwargs


class _Recorded(Exception):
    """Stops a corpus builder at its `_lower` call, carrying what it would have lowered."""

    def __init__(self, recorded: tuple):
        super().__init__()
        self.recorded = recorded


def _record(fn, mesh, in_specs, args, out_specs=None):
    in_shardings = jax_corpus._shardings(mesh, tuple(in_specs))
    out_shardings = None if out_specs is None else jax_corpus._shardings(mesh, out_specs)
    raise _Recorded((fn, mesh, in_shardings, out_shardings, args))


@functools.cache
def corpus_programs() -> dict[str, CorpusProgram]:
    """Every corpus program that lowers through `_lower` (all but the explicit-mesh one, which calls jit itself)."""
    programs = {}
    original = jax_corpus._lower
    jax_corpus._lower = _record
    try:
        for name, build in jax_corpus._PROGRAMS.items():
            try:
                build()
            except _Recorded as recorded:
                fn, mesh, in_shardings, out_shardings, args = recorded.recorded
                programs[name] = CorpusProgram(name, fn, mesh, in_shardings, out_shardings, args)
    finally:
        jax_corpus._lower = original
    return programs

