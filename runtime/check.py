"""`--check`: a run's outputs compared with the reference run of the same module (see reference.py)."""

from __future__ import annotations

import dataclasses

import numpy as np

from pysdy.runtime.comparison import mismatch
from pysdy.runtime.compile import CompiledModule
from pysdy.runtime.reference import reference_outputs


@dataclasses.dataclass(frozen=True)
class CheckResult:
    """What the outputs were compared with, and per output None (equal within tolerance) or what differs."""

    reference: str
    mismatches: tuple[str | None, ...]

    @property
    def passed(self) -> bool:
        return not any(self.mismatches)


def check_outputs(text: str, compiled: CompiledModule, inputs: list[np.ndarray], outputs: list[np.ndarray]) -> CheckResult:
    reference = reference_outputs(text, compiled.devices, inputs)
    return CheckResult(reference.description, tuple(mismatch(a, e) for a, e in zip(outputs, reference.outputs)))
