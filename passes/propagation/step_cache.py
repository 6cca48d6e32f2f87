"""Op steps memoized by content: the same rule and shardings in the same direction always give the same step.

Shardings and rules are interned (equal values become one object), so a
step's key is a tuple of identities that is cheap to hash. Large models repeat
the same steps over and over (every layer of a stack), and each is computed
once. Shardings name their mesh, so a cache serves the modules with the same
meshes: one after another in a context (JAX's hook hands off many), for as
long as pysdy's other memos of that context last.
"""

from __future__ import annotations

from typing import Hashable, TypeVar

from pysdy.dialects.ir_memo import ir_memo
from pysdy.dialects.sdy import Mesh

T = TypeVar("T")


class StepCache:
    def __init__(self) -> None:
        self._values: dict = {}
        self._interned: dict[int, object] = {}  # id -> each object handed out, to know them without hashing
        self._tokens: dict[Hashable, int] = {}
        # Step key -> outcome; the driver builds the keys (see PropagationDriver.propagate).
        self.steps: dict[tuple, tuple] = {}
        # Op signature -> its sharding rule (see ShardingGraph._rule_of): the signature is made of uniqued IR
        # objects of this cache's context, so it serves every module the cache does.
        self.rules: dict[tuple, object] = {}

    def intern(self, value: T) -> T:
        """The one object equal to `value` that this cache hands out (None stays None)."""
        if value is None or self._interned.get(id(value)) is value:
            return value
        interned = self._values.setdefault(value, value)
        self._interned[id(interned)] = interned
        return interned

    def token(self, value: Hashable) -> int:
        """A small int standing for `value` in step keys: equal values get the same token."""
        return self._tokens.setdefault(value, len(self._tokens))


def step_cache_for(meshes: dict[str, Mesh]) -> StepCache:
    """The step cache of modules with exactly these meshes, in the current context."""
    return _step_cache(tuple(sorted(meshes.items())))


@ir_memo(16)
def _step_cache(meshes: tuple[tuple[str, Mesh], ...]) -> StepCache:
    return StepCache()
