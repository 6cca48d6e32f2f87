"""What the hook tells the user: a Python warning for each fallback and each verify difference, and a summary of the
process's hooked compiles."""

from __future__ import annotations

import dataclasses
import threading
import warnings


class PysdyWarning(UserWarning):
    """Base of the hook's warnings (filter them with Python's `warnings` module)."""


class PysdyFallbackWarning(PysdyWarning):
    """A compile did not take the asked route: another route, or XLA alone on JAX's own module."""


class PysdyVerifyWarning(PysdyWarning):
    """Verify mode: jaxlib's C++ Shardy propagates the module differently from pysdy."""


@dataclasses.dataclass(frozen=True)
class HookSummary:
    """The hooked compiles of this process: how many, each fallback, and each verify difference (as warned)."""

    compiles: int
    fallbacks: tuple[str, ...]
    differences: tuple[str, ...]


class _Record:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.compiles = 0
        self.fallbacks: list[str] = []
        self.differences: list[str] = []


_RECORD = _Record()


def count_compile() -> None:
    with _RECORD.lock:
        _RECORD.compiles += 1


def report_fallback(message: str) -> None:
    with _RECORD.lock:
        _RECORD.fallbacks.append(message)
    warnings.warn(message, PysdyFallbackWarning, stacklevel=2)


def report_differences(differences: list[str]) -> None:
    with _RECORD.lock:
        _RECORD.differences.extend(differences)
    for difference in differences:
        warnings.warn(f"pysdy differs from jaxlib's C++ Shardy: {difference}", PysdyVerifyWarning, stacklevel=2)


def hook_summary() -> HookSummary:
    """What the hook did in this process so far."""
    with _RECORD.lock:
        return HookSummary(_RECORD.compiles, tuple(_RECORD.fallbacks), tuple(_RECORD.differences))
