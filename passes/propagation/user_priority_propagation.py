"""`sdy-user-priority-propagate`: op-priority propagation once per user priority, p0 first.

Before the first round every dimension with a priority above 0 is emptied,
closed, and its axes made explicitly replicated; before the round of priority
p, the dimensions whose original priority is p get their original sharding
back (without the priority) and those axes stop being replicated. The result
shardings of functions other than main, which propagation neither reads nor
writes, go through the same rounds.
"""

from __future__ import annotations

import dataclasses
import sys

from pysdy.dialects.sdy import AxisRef, DimSharding, Mesh, TensorSharding
from pysdy.passes.common import func_attrs
from pysdy.passes.common.main_function import main_func
from pysdy.passes.propagation.driver import DirectionFunction
from pysdy.passes.propagation.op_priority_propagation import OpPriorityPropagationPass
from pysdy.passes.propagation.sharding_graph import ShardingGraph
from pysdy.passes.registry import register_pass

# The original sharding of each slot that has dimensions of one priority.
PriorityReferences = list[tuple[int, TensorSharding]]


@register_pass
@dataclasses.dataclass(frozen=True)
class UserPriorityPropagationPass(OpPriorityPropagationPass):
    argument = "sdy-user-priority-propagate"
    summary = "Runs the user-priority propagation algorithm."

    def propagate(self, graph: ShardingGraph, direction: DirectionFunction) -> None:
        rounds = _initialize_for_priority_zero(graph)
        _settle_other_function_results(graph)
        super().propagate(graph, direction)
        for priority, references in rounds:
            for slot_id, original in references:
                current = graph.slots[slot_id].sharding
                graph.replace_sharding(slot_id, _restored_for_priority(current, original, priority))
            super().propagate(graph, direction)


def _settle_other_function_results(graph: ShardingGraph) -> None:
    """Rewrites the result shardings of every function but main as all the rounds leave them: each dimension
    without its priority, the replicated axes in mesh order."""
    main = main_func(graph.module)
    for op in graph.module.regions[0].blocks[0].operations:
        func = op.operation
        if func.name != "func.func" or func == main:
            continue
        settled = {}
        for index, sharding in enumerate(func_attrs.result_shardings(func)):
            if sharding is not None:
                final = _settled(sharding, _mesh_of(sharding, graph))
                if final != sharding:
                    settled[index] = final.to_attr()
        if settled:
            func_attrs.set_result_attrs(func, settled)


def _settled(sharding: TensorSharding, mesh: Mesh) -> TensorSharding:
    current = _initialized(sharding, mesh)
    for priority in sorted({_priority(d) for d in sharding.dims if _priority(d) > 0}):
        current = _restored_for_priority(current, sharding, priority)
    return current


def _priority(dim: DimSharding) -> int:
    return dim.priority or 0


def _initialize_for_priority_zero(graph: ShardingGraph) -> list[tuple[int, PriorityReferences]]:
    """Rewrites every sharding for round 0; returns the slots to restore per later priority, sorted."""
    by_priority: dict[int, PriorityReferences] = {}
    # Shardings are interned: each distinct one is looked at once.
    seen: dict[int, tuple[list[int], TensorSharding | None]] = {}
    for slot_id, slot in enumerate(graph.slots):
        sharding = slot.sharding
        if sharding is None:
            continue
        outcome = seen.get(id(sharding))
        if outcome is None:
            outcome = seen[id(sharding)] = _priorities_and_initialized(sharding, graph)
        priorities, initialized = outcome
        for priority in priorities:
            by_priority.setdefault(priority, []).append((slot_id, sharding))
        if initialized is not None:
            graph.replace_sharding(slot_id, initialized)
    return sorted(by_priority.items())


def _priorities_and_initialized(
    sharding: TensorSharding, graph: ShardingGraph
) -> tuple[list[int], TensorSharding | None]:
    """The sorted priorities above 0 of `sharding`, and its round-0 form (None if the same)."""
    priorities = sorted({_priority(d) for d in sharding.dims if _priority(d) > 0})
    initialized = _initialized(sharding, _mesh_of(sharding, graph))
    return priorities, (initialized if initialized != sharding else None)


def _mesh_of(sharding: TensorSharding, graph: ShardingGraph) -> Mesh:
    return graph.meshes[sharding.mesh] if isinstance(sharding.mesh, str) else sharding.mesh


def _initialized(sharding: TensorSharding, mesh: Mesh) -> TensorSharding:
    dims, replicated = [], list(sharding.replicated)
    for dim in sharding.dims:
        if _priority(dim) == 0:
            dims.append(dataclasses.replace(dim, priority=None))
        else:
            replicated.extend(dim.axes)
            dims.append(DimSharding((), True))
    replicated.sort(key=lambda axis: _mesh_order(axis, mesh))
    return dataclasses.replace(sharding, dims=tuple(dims), replicated=tuple(replicated))


def _restored_for_priority(current: TensorSharding, original: TensorSharding, priority: int) -> TensorSharding:
    dims, restored_axes = list(current.dims), set()
    for index, original_dim in enumerate(original.dims):
        if _priority(original_dim) == priority:
            dims[index] = dataclasses.replace(original_dim, priority=None)
            restored_axes.update(original_dim.axes)
    replicated = tuple(axis for axis in current.replicated if axis not in restored_axes)
    return dataclasses.replace(current, dims=tuple(dims), replicated=replicated)


def _mesh_order(axis: AxisRef, mesh: Mesh) -> tuple[int, int, int]:
    """Shardy's mesh order: by mesh position; of one axis, sub-axes by (pre-size, size), the full
    axis after its sub-axes of pre-size 1 and before the others."""
    position = mesh.axis_index(axis.name)
    position = len(mesh.axes) if position is None else position
    if axis.sub_axis is None:
        return (position, 1, sys.maxsize)
    return (position, axis.sub_axis.pre_size, axis.sub_axis.size)
