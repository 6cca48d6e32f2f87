"""`sdy-basic-propagate`: propagate shardings along compatible axes only, without resolving conflicts."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common.main_function import main_func
from pysdy.passes.propagation.debug_info import PropagationDebugInfo, UserShardings
from pysdy.passes.propagation.driver import DirectionFunction, PropagationDriver, propagate_any
from pysdy.passes.propagation.factor_propagation import BasicFactorPropagation
from pysdy.passes.propagation.sharding_graph import ShardingGraph
from pysdy.passes.propagation.sharding_group_sync import sync_group_member_shardings
from pysdy.passes.registry import MODULE, Pass, PassFailure, option, register_pass


@register_pass
@dataclasses.dataclass(frozen=True)
class BasicPropagationPass(Pass):
    argument = "sdy-basic-propagate"
    summary = "Runs the basic sharding propagation algorithm."
    anchor = MODULE

    keep_sharding_rules: bool = option(False, "whether to keep existing and created op sharding rules")
    # Accepted as jaxlib's Shardy accepts it; its passes write nothing there (0.10 to 0.12), and neither does pysdy.
    module_dump_directory: str = option("", "where to dump any rewritten modules for debugging")
    conservative_propagation: bool = option(
        False, "whether to disallow split axes and non-divisible sharding axes during propagation"
    )
    debug_sharding_origins: bool = option(
        False, "whether to save information about the origin of a sharding on the MLIR module"
    )
    debug_propagation_edge_sharding: bool = option(
        False, "whether to save information about the edge source of a sharding on the MLIR module"
    )

    def run(self, op: ir.Operation) -> None:
        check_static_shapes(op)
        if main_func(op) is None:
            # Shardy exchanges the main function's result shardings; its C++ aborts without one (every line).
            op.location.emit_error(
                f"{self.argument} needs a function @main, or a single function (jaxlib's C++ aborts without)"
            )
            raise PassFailure()
        user_shardings = UserShardings.read(op) if self.debug_sharding_origins else None
        sync_group_member_shardings(op)
        graph = ShardingGraph(op, self.conservative_propagation)
        debug_info = PropagationDebugInfo.attach(graph, user_shardings, self.debug_propagation_edge_sharding)
        self.propagate(graph, propagate_any)
        graph.write_back(self.keep_sharding_rules)
        if debug_info is not None:
            debug_info.write()

    def propagate(self, graph: ShardingGraph, direction: DirectionFunction) -> None:
        """One full propagation; the priority passes layer their iterations over this."""
        PropagationDriver(graph, BasicFactorPropagation(), direction).run()


def check_static_shapes(module: ir.Operation) -> None:
    """Shardy propagation needs static ranked tensors and no tuples; errors name the first offender."""
    failure = []

    def visit(op):
        for result in op.results:
            type_ = result.type
            if isinstance(type_, ir.TupleType):
                op.location.emit_error(f"Shardy propagation doesn't support tuples: '{type_}'")
            elif isinstance(type_, ir.ShapedType) and not type_.has_static_shape:
                op.location.emit_error(
                    f"Shardy propagation only supports ranked tensors with a static shape. type: '{type_}'"
                )
            else:
                continue
            failure.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    if failure:
        raise PassFailure()
