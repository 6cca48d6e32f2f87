"""Replays Shardy's propagation driver on a ShardingGraph: the worklist, its order, and what each visit does.

Shardy runs its propagation patterns in MLIR's rewrite driver over the ops
of the module: every op starts on the worklist in pre-order; when a sharding
changes, the ops Shardy notifies (and their ancestors) are pushed to the back
of the worklist unless already in it, and the worklist is popped from the
back. Side-effect-free ops whose results are unused are erased when visited.
The worklist is processed once: jaxlib 0.10.2 does not start over with a
fresh pre-order pass after changes (an op that only an erasure would unblock
is not revisited, see test/py/propagation). Before and after, function
results and returned values exchange shardings.
"""

from __future__ import annotations

from typing import Callable

from pysdy.dialects.sdy import Mesh, TensorSharding
from pysdy.passes.propagation.factor_propagation import PropagationDirection
from pysdy.passes.propagation.op_step import propagate_through_op
from pysdy.passes.propagation.rules.builder import identity_rule
from pysdy.passes.propagation.sharding_graph import Node, NodeKind, ShardingGraph

# (node, factor index) -> direction; Shardy's GetDirectionToPropagateFn.
DirectionFunction = Callable[[Node, int], PropagationDirection]


def propagate_any(node: Node, factor: int) -> PropagationDirection:
    return PropagationDirection.BOTH


def propagate_any_factor(factor: int) -> PropagationDirection:
    return PropagationDirection.BOTH


class _Worklist:
    """MLIR's driver worklist: push to the back unless present, pop from the back."""

    def __init__(self, nodes: list[int]):
        self._items: list[int | None] = list(reversed(nodes))
        self._position = {node: i for i, node in enumerate(self._items)}

    def push(self, node: int) -> None:
        if node not in self._position:
            self._position[node] = len(self._items)
            self._items.append(node)

    def pop(self) -> int | None:
        items = self._items
        while items:
            node = items.pop()
            if node is not None:
                del self._position[node]
                return node
        return None


class PropagationDriver:
    """One run of Shardy's basic propagation over a graph, with a given strategy and direction."""

    def __init__(self, graph: ShardingGraph, strategy, direction: DirectionFunction = propagate_any):
        self.graph = graph
        self.strategy = strategy
        self.direction = direction
        self._worklist: _Worklist | None = None
        self._current: int | None = None

    def run(self) -> None:
        self.propagate_func_results()
        live = [i for i, node in enumerate(self.graph.nodes) if not node.erased]
        self._worklist = _Worklist(live)
        self._process_worklist()
        self._worklist = None
        self.propagate_func_results()

    # ------------------------------------------------------------------
    # The worklist
    # ------------------------------------------------------------------

    def _process_worklist(self) -> None:
        nodes = self.graph.nodes
        while True:
            index = self._worklist.pop()
            if index is None:
                return
            node = nodes[index]
            if node.erased:
                continue
            if node.erasable and not any(counter[0] for counter in node.result_uses):
                self._erase(index)
                continue
            if node.kind is NodeKind.INERT:
                continue
            self._current = index
            self._visit(node)

    def _notify(self, node: int) -> None:
        """Shardy's notifyOpModified: revisit `node` and its ancestors, unless it is the op just visited."""
        if node != self._current and self._worklist is not None:
            self._push_with_ancestors(node)

    def _erase(self, index: int) -> None:
        """Erases a dead node as MLIR does: first revisit the producer of each operand
        that then has at most one other user, then drop the node's uses."""
        graph = self.graph
        node = graph.nodes[index]
        for value, producer in zip(node.op.operands, node.operand_producers):
            if producer is None:
                continue
            other_users = {graph.node_of(use.owner) for use in value.uses} - {index}
            if len([u for u in other_users if not graph.nodes[u].erased]) <= 1:
                self._push_with_ancestors(producer)
        for counter in node.operand_uses:
            counter[0] -= 1
        self._mark_erased(index)

    def _push_with_ancestors(self, node: int | None) -> None:
        nodes = self.graph.nodes
        while node is not None:
            self._worklist.push(node)
            node = nodes[node].parent

    def _mark_erased(self, index: int) -> None:
        nodes = self.graph.nodes
        nodes[index].erased = True
        for nested in range(index + 1, len(nodes)):
            if not self._is_within(nested, index):
                break
            nodes[nested].erased = True

    def _is_within(self, nested: int, ancestor: int) -> bool:
        parent = self.graph.nodes[nested].parent
        while parent is not None:
            if parent == ancestor:
                return True
            parent = self.graph.nodes[parent].parent
        return False

    # ------------------------------------------------------------------
    # Visiting a node
    # ------------------------------------------------------------------

    def _visit(self, node: Node) -> bool:
        """Visits a node as Shardy would; returns whether any sharding changed.

        A visit is a function of the shardings of the node's slots, the
        strategy and the direction, and a visit that changes nothing notifies
        nothing. So when none of these moved since such a visit, the visit is
        skipped: the outcome is the same, it is only faster.
        """
        slots = self.graph.slots
        seen = (
            self.strategy.__class__,
            self.direction,
            tuple(-1 if s is None else slots[s].version for s in node.operands),
            tuple(-1 if s is None else slots[s].version for s in node.results),
            node.has_multi_use_operand,
        )
        if node.settled == seen:
            return False
        changed = self._propagate_node(node)
        node.settled = None if changed else seen
        return changed

    def _propagate_node(self, node: Node) -> bool:
        if node.kind is NodeKind.BARRIER:
            direction = PropagationDirection(node.allowed_direction)
            return self.propagate(node, node.operands, node.results, lambda factor: direction, "barrier")
        conservative = self.graph.conservative and node.kind is NodeKind.RULE
        return self.propagate(
            node, node.operands, node.results, lambda factor: self.direction(node, factor), self.direction, conservative
        )

    def propagate(
        self,
        node: Node,
        operands,
        results,
        direction_along_factor,
        direction_key,
        conservative: bool = False,
        notify: bool = True,
    ) -> bool:
        """Propagates between the slots `operands` and `results` through `node`'s rule.

        `direction_key` identifies `direction_along_factor` for the step cache.
        """
        graph = self.graph
        slots = graph.slots
        transform = node.edge_transform
        operand_shardings = [None if s is None else slots[s].sharding for s in operands]
        result_shardings = [None if s is None else slots[s].sharding for s in results]
        if transform is not None and result_shardings[0] is not None:
            result_shardings[0] = transform.before_propagation(result_shardings[0])
        mesh_name = common_mesh_name(operand_shardings, result_shardings, graph.meshes)
        if mesh_name is None:
            return False
        cache = graph.cache
        if transform is not None and result_shardings[0] is not None:
            result_shardings[0] = cache.intern(result_shardings[0])
        key = (
            id(node.rule), node.name, node.elementwise, node.offload, node.has_multi_use_operand,
            node.kind, node.allowed_direction,
            direction_key, self.strategy.__class__, conservative, mesh_name,
            tuple(map(id, operand_shardings)), tuple(map(id, result_shardings)),
        )

        def compute() -> tuple:
            new_operands, new_results = propagate_through_op(
                operand_shardings,
                result_shardings,
                node.rule,
                mesh_name,
                graph.meshes[mesh_name],
                self.strategy,
                direction_along_factor,
                conservative,
                node.name,
                node.elementwise,
            )
            return [cache.intern(s) for s in new_operands], [cache.intern(s) for s in new_results]

        new_operands, new_results = cache.step(key, compute)
        new_results = list(new_results)
        if transform is not None and new_results[0] is not None:
            new_results[0] = transform.after_propagation(new_results[0])
        updated = False
        for slot_ids, new_shardings in ((operands, new_operands), (results, new_results)):
            for slot_id, sharding in zip(slot_ids, new_shardings):
                if sharding is None or slot_id is None:
                    continue
                self._update(slot_id, sharding, notify)
                updated = True
        if updated and graph.debug_info is not None:
            graph.debug_info.record(
                node, operands, results, operand_shardings, result_shardings, mesh_name, self.strategy,
                direction_along_factor, conservative,
            )
        return updated

    def _update(self, slot_id: int, sharding: TensorSharding, notify: bool) -> None:
        graph = self.graph
        graph.set_sharding(slot_id, sharding)
        if notify:
            for node in graph.slots[slot_id].notify:
                self._notify(node)
        group = graph.slots[slot_id].group
        if group is None:
            return
        for member in graph.groups[group]:
            if member == slot_id:
                continue
            graph.set_sharding(member, sharding)
            if notify:
                for node in graph.slots[member].notify:
                    self._notify(node)

    # ------------------------------------------------------------------
    # Function results
    # ------------------------------------------------------------------

    def propagate_func_results(self) -> None:
        """Shardy's propagateFuncResults: returned values <-> function result attributes."""
        graph = self.graph
        for func in graph.funcs:
            func_node = graph.nodes[func.func]
            for returned, result, shape in zip(func.returned, func.results, func.shapes):
                if shape is None or returned is None:
                    continue
                rule = graph.cache.intern(identity_rule(shape, 1, 1))
                edge = Node(func_node.op, func_node.name, None, NodeKind.RULE, rule)
                self._current = None
                self.propagate(edge, [returned], [result], propagate_any_factor, "any", notify=False)


def common_mesh_name(operands, results, meshes: dict[str, Mesh]) -> str | None:
    """The one mesh all the shardings use (meshes without axes are compatible with any); None if none or several."""
    name: str | None = None
    mesh: Mesh | None = None
    for sharding in list(operands) + list(results):
        if sharding is None:
            continue
        other = meshes.get(sharding.mesh) if isinstance(sharding.mesh, str) else sharding.mesh
        if mesh is None or not mesh.axes:
            mesh, name = other, sharding.mesh
            continue
        if other is None or not other.axes:
            continue
        if other != mesh:
            return None
    return name if isinstance(name, str) else None
