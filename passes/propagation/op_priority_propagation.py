"""`sdy-op-priority-propagate`: aggressive propagation in steps, pass-through ops first (see op_priorities)."""

from __future__ import annotations

import dataclasses

from pysdy.passes.propagation.aggressive_propagation import AggressivePropagationPass
from pysdy.passes.propagation.driver import DirectionFunction
from pysdy.passes.propagation.op_priorities import SCHEDULE, direction_at_step
from pysdy.passes.propagation.sharding_graph import ShardingGraph
from pysdy.passes.registry import option, register_pass


@register_pass
@dataclasses.dataclass(frozen=True)
class OpPriorityPropagationPass(AggressivePropagationPass):
    argument = "sdy-op-priority-propagate"
    summary = "Runs the op-priority propagation algorithm."

    run_op_priority_propagation: bool = option(True, "whether to run (or skip) op-priority propagation")

    def propagate(self, graph: ShardingGraph, direction: DirectionFunction) -> None:
        if not self.run_op_priority_propagation:
            super().propagate(graph, direction)
            return
        for step in range(len(SCHEDULE)):
            super().propagate(graph, direction_at_step(step, direction))
