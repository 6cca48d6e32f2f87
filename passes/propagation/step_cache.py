"""Op steps memoized by content: the same rule and shardings in the same direction always give the same step.

Shardings and rules are interned (equal values become one object), so a
step's key is a tuple of identities that is cheap to hash. Large models repeat
the same steps over and over (every layer of a stack), and each is computed
once.
"""

from __future__ import annotations

from typing import Callable, Hashable, TypeVar

T = TypeVar("T")


class StepCache:
    def __init__(self) -> None:
        self._values: dict = {}
        self._steps: dict[Hashable, tuple] = {}

    def intern(self, value: T) -> T:
        """The one object equal to `value` that this cache hands out (None stays None)."""
        if value is None:
            return None
        return self._values.setdefault(value, value)

    def step(self, key: Hashable, compute: Callable[[], tuple]) -> tuple:
        result = self._steps.get(key)
        if result is None:
            result = self._steps[key] = compute()
        return result
