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

    def __init__(self, nodes: list[int], size: int):
        self.items: list[int] = nodes[::-1]
        self.queued = bytearray(size)  # 1 for the nodes in `items`
        for node in nodes:
            self.queued[node] = 1

    def push(self, node: int) -> None:
        if not self.queued[node]:
            self.queued[node] = 1
            self.items.append(node)


class PropagationDriver:
    """One run of Shardy's basic propagation over a graph, with a given strategy and direction."""

    def __init__(self, graph: ShardingGraph, strategy, direction: DirectionFunction = propagate_any):
        self.graph = graph
        self.strategy = strategy
        self.direction = direction
        self._worklist: _Worklist | None = None
        self._current: int | None = None
        # Step-cache tokens for the ways this run chooses directions (see `propagate`).
        strategy_class = strategy.__class__
        self._direction_token = graph.cache.token((strategy_class, direction))
        self._barrier_token = graph.cache.token((strategy_class, "barrier"))
        self._any_token = graph.cache.token((strategy_class, "any"))

    def run(self) -> None:
        self.propagate_func_results()
        nodes = self.graph.nodes
        live = [i for i, node in enumerate(nodes) if not node.erased]
        self._worklist = _Worklist(live, len(nodes))
        self._process_worklist()
        self._worklist = None
        self.propagate_func_results()

    # ------------------------------------------------------------------
    # The worklist
    # ------------------------------------------------------------------

    def _process_worklist(self) -> None:
        nodes = self.graph.nodes
        items, queued = self._worklist.items, self._worklist.queued
        inert, barrier = NodeKind.INERT, NodeKind.BARRIER
        while items:
            index = items.pop()
            queued[index] = 0
            node = nodes[index]
            if node.erased:
                continue
            if node.erasable:
                counts = node.use_counts
                for value in node.result_values:
                    if counts[value]:
                        break
                else:
                    self._erase(index)
                    continue
            kind = node.kind
            if kind is inert:
                continue
            self._current = index
            if kind is barrier:
                self.propagate(node, self._barrier_token)
            else:
                self.propagate(node, self._direction_token)

    def _notify(self, node: int) -> None:
        """Shardy's notifyOpModified: revisit `node` and its ancestors, unless it is the op just visited."""
        if node != self._current and self._worklist is not None:
            self._push_with_ancestors(node)

    def _erase(self, index: int) -> None:
        """Erases a dead node as MLIR's rewriter does: the nodes nested in it first, last to first, then the node."""
        nodes = self.graph.nodes
        end = index + 1
        while end < len(nodes) and self._is_within(end, index):
            end += 1
        for erased in reversed(range(index, end)):
            if not nodes[erased].erased:
                self._erase_one(erased)

    def _erase_one(self, index: int) -> None:
        """Erases one node: first revisit the producer of each operand that then has at most one other user,
        then drop the node's uses."""
        graph = self.graph
        node = graph.nodes[index]
        for value, value_id in zip(node.op.operands, node.operand_values):
            producer = graph.producers[value_id]
            if producer is None:
                continue
            other_users = {graph.node_of(use.owner) for use in value.uses} - {index}
            if len([u for u in other_users if not graph.nodes[u].erased]) <= 1:
                self._push_with_ancestors(producer)
        for value_id in node.operand_values:
            node.use_counts[value_id] -= 1
        node.erased = True

    def _push_with_ancestors(self, node: int | None) -> None:
        nodes = self.graph.nodes
        push = self._worklist.push
        while node is not None:
            push(node)
            node = nodes[node].parent

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

    def propagate(self, node: Node, direction_token: int, notify: bool = True) -> bool:
        """Propagates through `node`'s rule between its operand and result slots; returns whether any changed.

        A step is a function of the node's signature, the direction (with the
        strategy, `direction_token`), whether an operand has other uses (which
        op priorities look at) and the shardings, so the step cache keys it by
        these; a step that changes nothing notifies nothing.
        """
        graph = self.graph
        cache = graph.cache
        shardings = [slot.sharding for slot in node.slot_objects]
        transform = node.edge_transform
        first_result = node.signature_operands
        if transform is not None and shardings[first_result] is not None:
            shardings[first_result] = cache.intern(transform.before_propagation(shardings[first_result]))
        multi_use = False
        counts = node.use_counts
        for value in node.tensor_operand_values:
            if counts[value] != 1:
                multi_use = True
                break
        key = (direction_token, node.signature, multi_use, *map(id, shardings))
        outcome = cache.steps.get(key)
        if outcome is None:
            outcome = cache.steps[key] = self._step(node, direction_token, shardings)
        mesh_name, updates = outcome
        if not updates:
            return False
        slot_ids = node.operands + node.results
        updated = False
        for position, sharding in updates:
            slot_id = slot_ids[position]
            if slot_id is None:
                continue
            if transform is not None and position == first_result:
                sharding = transform.after_propagation(sharding)
            self._update(slot_id, sharding, notify)
            updated = True
        if updated and graph.debug_info is not None:
            graph.debug_info.record(
                node, node.operands, node.results, shardings[:first_result], shardings[first_result:], mesh_name,
                self.strategy, self._direction_along_factor(node, direction_token), node.conservative,
            )
        return updated

    def _step(self, node: Node, direction_token: int, shardings: list) -> tuple:
        """The mesh name and the (slot position, new sharding) updates of one step, computed."""
        graph = self.graph
        cache = graph.cache
        operand_shardings, result_shardings = shardings[: node.signature_operands], shardings[node.signature_operands :]
        mesh_name = common_mesh_name(operand_shardings, result_shardings, graph.meshes)
        if mesh_name is None or graph.meshes[mesh_name].is_maximal:
            return None, ()  # Shardy does not propagate maximal shardings
        new_operands, new_results = propagate_through_op(
            operand_shardings,
            result_shardings,
            node.rule,
            mesh_name,
            graph.meshes[mesh_name],
            self.strategy,
            self._direction_along_factor(node, direction_token),
            node.conservative,
            node.name,
            node.elementwise,
        )
        updates = tuple(
            (position, cache.intern(sharding))
            for position, sharding in enumerate(new_operands + new_results)
            if sharding is not None
        )
        return mesh_name, updates

    def _direction_along_factor(self, node: Node, direction_token: int):
        if direction_token == self._barrier_token:
            direction = PropagationDirection(node.allowed_direction)
            return lambda factor: direction
        if direction_token == self._any_token:
            return propagate_any_factor
        return lambda factor: self.direction(node, factor)

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
                edge = Node(func_node.op, func_node.name, None, NodeKind.RULE, rule, (returned,), (result,))
                graph.prepare_for_steps(edge, conservative=False)
                self._current = None
                self.propagate(edge, self._any_token, notify=False)


def common_mesh_name(operands, results, meshes: dict[str, Mesh]) -> str | None:
    """The one mesh all the shardings use (empty meshes are compatible with any); None if none or several.

    A maximal mesh (device ids, no axes) is not empty: it is compatible only with itself.
    """
    name: str | None = None
    mesh: Mesh | None = None
    for sharding in list(operands) + list(results):
        if sharding is None:
            continue
        other = meshes.get(sharding.mesh) if isinstance(sharding.mesh, str) else sharding.mesh
        if mesh is None or mesh.is_empty:
            mesh, name = other, sharding.mesh
            continue
        if other is None or other.is_empty:
            continue
        if other != mesh:
            return None
    return name if isinstance(name, str) else None
