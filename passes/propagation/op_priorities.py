"""Op-priority heuristics: in which direction each op may propagate at each op-priority step.

Step 0 lets pass-through ops (elementwise, reshape, transpose, data-flow
edges of both kinds, host-offload calls; dynamic slices forward only)
propagate when none of their tensor operands has other uses; step 1 the
same ops regardless of uses; step 2 any op along its pass-through factors
(broadcasts backward only); step 3 any op (broadcasts backward only); step
4 everything. The direction at step p is the union of the heuristics 0..p,
intersected with the direction the caller allows.
"""

from __future__ import annotations

import functools

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.factor_propagation import (
    PropagationDirection,
    intersection_of_directions,
    union_of_directions,
)
from pysdy.passes.propagation.func_data_flow_edges import FUNC_EDGE_OP
from pysdy.passes.propagation.sharding_graph import Node, NodeKind

NONE = PropagationDirection.NONE
FORWARD = PropagationDirection.FORWARD
BACKWARD = PropagationDirection.BACKWARD
BOTH = PropagationDirection.BOTH

# Besides elementwise ops and host offloads; both kinds of data-flow edge only pass values on.
_PASS_THROUGH_OPS = frozenset({"stablehlo.reshape", "stablehlo.transpose", "sdy.data_flow_edge", FUNC_EDGE_OP})


def _direction_based_on_uses(node: Node, allow_multi_use: bool) -> PropagationDirection:
    # With an operand used elsewhere too, propagating could conflict with the other uses.
    if allow_multi_use or not node.has_multi_use_operand:
        return BOTH
    return NONE


def _pass_through_op(node: Node, allow_multi_use: bool) -> PropagationDirection:
    if node.elementwise or node.offload or node.name in _PASS_THROUGH_OPS:
        return _direction_based_on_uses(node, allow_multi_use)
    if node.name in ("stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice"):
        return intersection_of_directions(_direction_based_on_uses(node, allow_multi_use), FORWARD)
    return NONE


def pass_through_ops_single_use(node: Node, factor: int) -> PropagationDirection:
    return _pass_through_op(node, allow_multi_use=False)


def pass_through_ops(node: Node, factor: int) -> PropagationDirection:
    return _pass_through_op(node, allow_multi_use=True)


def pass_through_factors_broadcast_backward(node: Node, factor: int) -> PropagationDirection:
    # Ops without a rule attribute (data-flow edges, barriers) count as identity.
    if node.kind is NodeKind.RULE and node.rule.factor_kind(factor) is not FactorKind.PASS_THROUGH:
        return NONE
    return BACKWARD if node.name == "stablehlo.broadcast_in_dim" else BOTH


def any_direction_but_broadcast_forward(node: Node, factor: int) -> PropagationDirection:
    return BACKWARD if node.name == "stablehlo.broadcast_in_dim" else BOTH


def any_direction(node: Node, factor: int) -> PropagationDirection:
    return BOTH


SCHEDULE = (
    pass_through_ops_single_use,
    pass_through_ops,
    pass_through_factors_broadcast_backward,
    any_direction_but_broadcast_forward,
    any_direction,
)


@functools.cache
@functools.cache
def direction_at_step(step: int, allowed):
    """The direction function for op-priority step `step`, within what `allowed` permits (one function object
    per step and `allowed`, so visits can tell directions apart and the step cache knows it from one module to
    the next)."""
    heuristics = SCHEDULE[: step + 1]

    def direction(node: Node, factor: int) -> PropagationDirection:
        result = NONE
        for heuristic in heuristics:
            result = union_of_directions(result, heuristic(node, factor))
        return intersection_of_directions(result, allowed(node, factor))

    return direction
