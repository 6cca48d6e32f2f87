"""Op-priority heuristics: in which direction each op may propagate at each op-priority step.

Step 0 lets only pass-through ops propagate (elementwise, reshape,
transpose, data-flow edges in both directions; dynamic slices forward),
step 1 any op along its pass-through factors, step 2 everything. The
direction at step p is the union of the heuristics 0..p, intersected with
the direction the caller allows.
"""

from __future__ import annotations

import functools

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.factor_propagation import (
    PropagationDirection,
    intersection_of_directions,
    union_of_directions,
)
from pysdy.passes.propagation.sharding_graph import Node, NodeKind

NONE = PropagationDirection.NONE
FORWARD = PropagationDirection.FORWARD
BOTH = PropagationDirection.BOTH

def pass_through_ops(node: Node, factor: int) -> PropagationDirection:
    if node.elementwise or node.name in ("stablehlo.reshape", "stablehlo.transpose", "sdy.data_flow_edge"):
        return BOTH
    if node.name in ("stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice"):
        return FORWARD
    return NONE


def pass_through_factors(node: Node, factor: int) -> PropagationDirection:
    # Ops without a rule attribute (data-flow edges, barriers) count as identity.
    if node.kind is NodeKind.RULE and node.rule.factor_kind(factor) is not FactorKind.PASS_THROUGH:
        return NONE
    return BOTH


def any_direction(node: Node, factor: int) -> PropagationDirection:
    return BOTH


SCHEDULE = (pass_through_ops, pass_through_factors, any_direction)


@functools.cache
def direction_at_step(step: int, allowed):
    """The direction function for op-priority step `step`, within what `allowed` permits
    (one function object per step, so visits can tell directions apart)."""
    heuristics = SCHEDULE[: step + 1]

    def direction(node: Node, factor: int) -> PropagationDirection:
        result = NONE
        for heuristic in heuristics:
            result = union_of_directions(result, heuristic(node, factor))
        return intersection_of_directions(result, allowed(node, factor))

    return direction
