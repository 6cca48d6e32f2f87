"""`xla-sdy-stablehlo-export-manual-reduction-collectives`: reductions over unreduced axes, before the rest of the export.

Done here: unreduced axes of a transpose, reshape or copy result move back
onto its input (when the input is not sharded along them), as XLA does so
the partitioner sees where the partial sums come from. Not done: XLA turns
`sdy.all_reduce` / `sdy.reduce_scatter` of unreduced inputs,
`sdy.sharded_to_unreduced`, `sdy.replicated_to_unreduced` and constants with
unreduced axes into fully manual computations of StableHLO collectives;
pysdy reports those ops as unsupported instead of exporting them wrongly.
"""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.common.value_shardings import get_sharding, set_sharding
from pysdy.passes.common.values import rank
from pysdy.passes.diagnostics import emit_warning
from pysdy.passes.propagation.axis_refs import overlaps
from pysdy.passes.registry import MODULE, Pass, PassFailure, register_pass

_DATA_PRESERVING = ("stablehlo.transpose", "stablehlo.reshape", "mhlo.copy")
_REDUCTIONS = ("sdy.all_reduce", "sdy.reduce_scatter")
_TO_UNREDUCED = ("sdy.sharded_to_unreduced", "sdy.replicated_to_unreduced")


def _reverse_post_order(block: ir.Block, visit) -> None:
    """MLIR's post-order walk with the reverse iterator: each block's ops last to first, regions before their op."""
    for child in reversed(list(block.operations)):
        op = child.operation
        for region in reversed(list(op.regions)):
            for nested in reversed(list(region.blocks)):
                _reverse_post_order(nested, visit)
        visit(op)


def _sync_unreduced_axes(op: ir.Operation) -> None:
    """Gives the op's input the unreduced axes of its result."""
    source = op.operands[0]
    out = get_sharding(op.results[0])
    if not isinstance(source, ir.OpResult) or out is None or not out.unreduced:
        return
    current = get_sharding(source) or TensorSharding.fully_closed(out.mesh, rank(source))
    if current.unreduced == out.unreduced:
        return
    placed = [ref for dim in current.dims for ref in dim.axes] + list(current.replicated)
    if any(overlaps(ref, unreduced) for ref in placed for unreduced in out.unreduced):
        emit_warning(
            op.location,
            f"{op.name} has unreduced axes, but input is sharded along one of those axes, this can lead "
            "to undefined behavior",
        )
        return
    set_sharding(source, dataclasses.replace(current, unreduced=out.unreduced))


def _unsupported(op: ir.Operation) -> bool:
    """Whether XLA would rewrite `op` into a manual computation of collectives, which pysdy does not do."""
    if op.name in _TO_UNREDUCED:
        return True
    if op.name in _REDUCTIONS:
        source = get_sharding(op.operands[0])
        return source is not None and bool(source.unreduced)
    if op.name == "sdy.constant" and "sdy.sharding" in op.attributes:
        shardings = TensorShardingPerValue.from_attr(op.attributes["sdy.sharding"]).shardings
        return bool(shardings and shardings[0].unreduced)
    return False


@register_pass
@dataclasses.dataclass(frozen=True)
class StablehloExportManualReductionCollectivesPass(Pass):
    argument = "xla-sdy-stablehlo-export-manual-reduction-collectives"
    summary = (
        "Exports `sdy.all_reduce`, `sdy.reduce_scatter`, `sdy.sharded_to_unreduced` and "
        "`sdy.replicated_to_unreduced` that originate from user-defined shardings with unreduced axes."
    )
    anchor = MODULE

    def run(self, op: ir.Operation) -> None:
        unsupported: list[ir.Operation] = []

        def visit(nested: ir.Operation) -> None:
            if nested.name in _DATA_PRESERVING:
                _sync_unreduced_axes(nested)
            elif _unsupported(nested):
                unsupported.append(nested)

        _reverse_post_order(op.regions[0].blocks[0], visit)
        for nested in reversed(unsupported):
            nested.location.emit_error(
                f"pysdy cannot export '{nested.name}' over unreduced axes: XLA turns it into a manual "
                "computation of StableHLO collectives, which pysdy does not build"
            )
        if unsupported:
            raise PassFailure()
