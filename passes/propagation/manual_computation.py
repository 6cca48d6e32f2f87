"""How propagation converts the sharding of a data-flow edge of an `sdy.manual_computation` (Shardy's transformTargetSharding).

A data-flow edge on a body argument stores the sharding without the manual
axes, and one on a result stores it with them; propagation along the edge
sees the other side's view.
"""

from __future__ import annotations

import dataclasses

from pysdy.dialects.sdy import TensorSharding
from pysdy.passes.common.manual_axes import add_free_axes, erase_manual_axes


@dataclasses.dataclass(frozen=True)
class ManualEdgeTransform:
    """How an edge of a manual computation converts its stored sharding for propagation and back."""

    outer: TensorSharding  # the in or out sharding of the manual computation for this edge
    manual_axes: frozenset[str]
    on_body_argument: bool

    def before_propagation(self, stored: TensorSharding) -> TensorSharding:
        if self.on_body_argument:
            return add_free_axes(self.outer, stored, self.manual_axes)
        return erase_manual_axes(stored, self.manual_axes)

    def after_propagation(self, propagated: TensorSharding) -> TensorSharding:
        if self.on_body_argument:
            return erase_manual_axes(propagated, self.manual_axes)
        return add_free_axes(self.outer, propagated, self.manual_axes)
