"""`sdy-aggressive-propagate`: basic propagation with a factor strategy that resolves conflicts."""

from __future__ import annotations

import dataclasses
import enum

from pysdy.passes.propagation.basic_propagation import BasicPropagationPass
from pysdy.passes.propagation.driver import DirectionFunction, PropagationDriver
from pysdy.passes.propagation.factor_propagation import AggressiveFactorPropagation, BasicFactorPropagation
from pysdy.passes.propagation.sharding_graph import ShardingGraph
from pysdy.passes.registry import option, register_pass


class PropagationStrategy(enum.Enum):
    BASIC = "basic"
    AGGRESSIVE = "aggressive"
    BASIC_THEN_AGGRESSIVE = "basic-then-aggressive"


@register_pass
@dataclasses.dataclass(frozen=True)
class AggressivePropagationPass(BasicPropagationPass):
    argument = "sdy-aggressive-propagate"
    summary = "Runs the aggressive sharding propagation algorithm."

    propagation_strategy: PropagationStrategy = option(
        PropagationStrategy.AGGRESSIVE, "which factor propagation strategy to use"
    )

    def propagate(self, graph: ShardingGraph, direction: DirectionFunction) -> None:
        strategies = {
            PropagationStrategy.BASIC: [BasicFactorPropagation()],
            PropagationStrategy.AGGRESSIVE: [AggressiveFactorPropagation()],
            PropagationStrategy.BASIC_THEN_AGGRESSIVE: [BasicFactorPropagation(), AggressiveFactorPropagation()],
        }[self.propagation_strategy]
        for strategy in strategies:
            PropagationDriver(graph, strategy, direction).run()
