"""`sdy-optimize-collectives` (jax lines from 0.11): jaxlib's Shardy rewrites a collective permute that only
reorders the axes of one dimension, when all-to-alls take its result, into reshaped all-to-alls. pysdy does not
make that rewrite: it reports each collective permute the rewrite could apply to, and leaves every other module
as it is (as the C++ pass does; it rewrites no dimension its permuted axes do not divide)."""

from __future__ import annotations

import dataclasses
import re

from jaxlib.mlir import ir

from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.common.values import is_static_shaped, rank
from pysdy.passes.export.reshard_ir import MeshTable
from pysdy.passes.propagation.axis_refs import total_size
from pysdy.passes.registry import FUNC, Pass, PassFailure, register_pass


@register_pass
@dataclasses.dataclass(frozen=True)
class OptimizeCollectivesPass(Pass):
    argument = "sdy-optimize-collectives"
    summary = "Optimizes collectives (a collective permute before all-to-alls)."
    anchor = FUNC
    line_field = "optimize_collectives"

    def run(self, op: ir.Operation) -> None:
        meshes = MeshTable(op.parent)
        candidates = [cp for cp in nested_ops(op, name="sdy.collective_permute") if _may_be_rewritten(cp, meshes)]
        for cp in candidates:
            cp.location.emit_error(
                "sdy-optimize-collectives: pysdy does not implement the rewrite of a collective permute "
                "followed by all-to-alls"
            )
        if candidates:
            raise PassFailure()


def _may_be_rewritten(cp: ir.Operation, meshes: MeshTable) -> bool:
    """The collective permute reorders the axes (or sub-axes) of a single dimension of a static tensor, whose size
    they divide, and an all-to-all moving single axes is its only user: a superset of what the C++ pattern
    rewrites."""
    value = cp.operands[0]
    if not is_static_shaped(value) or rank(value) == 0:
        return False
    users = list(cp.results[0].uses)
    if len(users) != 1 or users[0].owner.name != "sdy.all_to_all" or not _moves_single_axes(users[0].owner):
        return False
    source, target = get_sharding(value), get_sharding(cp.results[0])
    if source is None or target is None or source.mesh != target.mesh:
        return False
    changed = [(d, a.axes, b.axes) for d, (a, b) in enumerate(zip(source.dims, target.dims)) if a.axes != b.axes]
    if len(changed) != 1:
        return False
    dim, before, after = changed[0]
    size = ir.RankedTensorType(value.type).shape[dim]
    axes_size = total_size(before, meshes.of(source))
    if size < axes_size or size % axes_size:
        return False  # the C++ splits the dimension into one per axis only where they divide it
    return max(len(before), len(after)) >= 2 and {a.name for a in before} == {a.name for a in after}


def _moves_single_axes(all_to_all: ir.Operation) -> bool:
    """Every parameter of the all-to-all moves one axis (`[{"x"}: 0->1, ...]`)."""
    params = str(all_to_all.attributes["params"])
    return all("," not in axes for axes in re.findall(r"\{([^}]*)\}", params))
