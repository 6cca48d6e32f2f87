"""What a reshard costs: the collectives pysdy's reshard planner makes of it and the bytes each device sends for them."""

from __future__ import annotations

import math

from jaxlib.mlir import ir

from pysdy.dialects.sdy import Mesh, TensorSharding
from pysdy.explanation.sizes import element_bytes, local_bytes
from pysdy.passes.export.collective_plan import AllGather, AllSlice, AllToAll, IncompleteReshardError, plan_collectives


def reshard_cost(current, needed: TensorSharding, mesh: Mesh | None, shape: list[int], type_: ir.Type) -> tuple[tuple[str, ...], int]:
    """The collectives the reshard becomes and the bytes each device sends for them."""
    if mesh is None or current is None or current.mesh != needed.mesh or current.rank != needed.rank:
        return ("(between meshes)",) if current is not None and current.mesh != needed.mesh else (), 0
    element_size = element_bytes(ir.RankedTensorType(type_).element_type)
    try:
        plan = plan_collectives(current, needed, needed.mesh if isinstance(needed.mesh, str) else "", mesh, shape)
    except (IncompleteReshardError, KeyError, ValueError):
        return ("(not planned)",), 0
    names, sent, before = [], 0, current
    for collective in plan:
        after = collective.out_sharding
        local_before = local_bytes(before, mesh, shape, element_size)
        local_after = local_bytes(after, mesh, shape, element_size)
        if isinstance(collective, AllGather):
            names.append("all-gather")
            sent += max(local_after - local_before, 0)
        elif isinstance(collective, AllToAll):
            group = math.prod(axis.size(mesh) for axis in collective.axes)
            names.append("all-to-all")
            sent += local_before * (group - 1) // group
        elif isinstance(collective, AllSlice):
            names.append("all-slice")
        else:
            names.append("collective-permute")
            sent += local_before
        before = after
    return tuple(names), sent
