"""The module as plain Python data for propagation: read from the IR once, written back once.

Nodes are the ops in the order Shardy's rewrite driver first visits them (a
pre-order walk). Slots hold shardings: one per shardable value (a function
argument, an op result, an `sdy.data_flow_edge` standing for all targets of
its edge) and one per function result. Each slot knows which nodes Shardy
notifies when its sharding changes, in Shardy's order, so the worklist can
be replayed exactly without touching the IR.
"""

from __future__ import annotations

import dataclasses
import enum
import sys

from jaxlib.mlir import ir

from pysdy.dialects.sdy import ManualAxes, Mesh, OpShardingRule, TensorSharding, TensorShardingPerValue
from pysdy.passes.common import data_flow as edges
from pysdy.passes.common.main_function import main_func
from pysdy.passes.common.value_shardings import (
    block_arg_owner_shardings,
    result_owner_shardings,
    set_block_arg_owner_shardings,
    set_result_owner_shardings,
)
from pysdy.passes.propagation.dead_ops import RECURSIVE_EFFECTS, has_own_effects
from pysdy.passes.propagation.elementwise import is_elementwise
from pysdy.passes.propagation.func_data_flow_edges import FUNC_EDGE_OP, FuncEdges
from pysdy.passes.propagation.manual_computation import ManualEdgeTransform
from pysdy.passes.propagation.rules import get_or_create_rule
from pysdy.passes.propagation.rules.registry import rule_reads_producers, rule_reads_regions
from pysdy.passes.propagation.rules.builder import identity_rule, shape_of
from pysdy.passes.propagation.step_cache import step_cache_for
from pysdy.passes.registry import PassFailure

SHARDING = "sdy.sharding"


class NodeKind(enum.Enum):
    RULE = "rule"  # an op with a sharding rule
    EDGE = "edge"  # an sdy.data_flow_edge
    BARRIER = "barrier"  # an sdy.propagation_barrier
    INERT = "inert"  # anything else: visiting it propagates nothing


class SlotKind(enum.Enum):
    FUNC_ARG = "func_arg"
    FUNC_RESULT = "func_result"
    OP_RESULT = "op_result"  # stored in the op's sdy.sharding_per_value
    OWN_ATTR = "own_attr"  # the op's own sharding attribute (edge, constraint, reshard)
    # An edge owner of a named or manual computation that has no sdy.data_flow_edge: stored in the
    # op's out_shardings (a result) or in_shardings (a body argument, seen without the manual axes).
    RESULT_EDGE_OWNER = "result_edge_owner"
    ARG_EDGE_OWNER = "arg_edge_owner"


@dataclasses.dataclass(slots=True)
class Node:
    """One op. Its sequences are tuples, an op without any sharing one empty tuple: a transformer stack has
    about one node per op, so each field costs as many bytes as the module has ops."""

    op: ir.Operation
    name: str
    parent: int | None  # the enclosing node, None for ops directly in the module
    kind: NodeKind = NodeKind.INERT
    rule: OpShardingRule | None = None
    operands: tuple[int | None, ...] = ()  # slot ids
    results: tuple[int | None, ...] = ()
    allowed_direction: int | None = None  # of a propagation barrier: a PropagationDirection value
    erasable: bool = False  # pure: erased by the driver once its results are unused
    # Value ids (indices into `use_counts`, which the graph's nodes share; erasing an op lowers the counts).
    operand_values: tuple[int, ...] = ()
    result_values: tuple[int, ...] = ()
    tensor_operand_values: tuple[int, ...] = ()  # of the non-scalar operands only
    use_counts: list[int] | tuple[()] = ()  # the graph's; empty for a node made after reading, which has no values
    erased: bool = False
    elementwise: bool = False
    edge_transform: ManualEdgeTransform | None = None  # of an edge of a manual computation
    offload: bool = False  # a MoveToHost / MoveToDevice custom call
    # Set by ShardingGraph.prepare_for_steps: what the step cache keys a visit by.
    signature: int = -1  # a token for everything of the node a step depends on
    signature_operands: int = 0  # how many of `slot_objects` are operands
    conservative: bool = False  # whether steps through it disallow split and non-divisible axes
    slot_objects: tuple[Slot, ...] = ()  # operands then results

    @property
    def has_multi_use_operand(self) -> bool:
        """Whether a non-scalar operand has other uses (op-priority steps care)."""
        counts = self.use_counts
        return any(counts[value] != 1 for value in self.tensor_operand_values)


@dataclasses.dataclass(slots=True)
class Slot:
    """Where one sharding lives, who holds it and whom to notify when it changes."""

    kind: SlotKind
    sharding: TensorSharding | None
    rank: int
    owner: int | None  # node holding the sharding (op result / own attribute); the func for args and results
    index: int  # result number, argument number or function result number
    notify: tuple[int, ...] = ()  # nodes to revisit when it changes
    group: int | None = None  # sharding group id
    changed: bool = False


# Stands in for an unshardable value among a node's slot objects: it never has a sharding.
_NO_SLOT = Slot(SlotKind.OP_RESULT, None, 0, None, 0)


@dataclasses.dataclass
class FuncResults:
    """The return values of one function and the slots of its result attributes."""

    func: int
    returned: list[int | None]  # slot of each returned value (None for non-tensors)
    results: list[int]  # FUNC_RESULT slots
    shapes: list[tuple[int, ...] | None]


class _ValueInfo:
    """What reading learned of one value: its id, slot, type, producing node and a user."""

    __slots__ = ("id", "slot", "type", "rank", "user")

    def __init__(self, id_: int, slot: int | None, type_: ir.Type):
        self.id = id_  # its index in the graph's use counts and producers
        self.slot = slot
        self.type = type_
        self.rank = type_.rank if isinstance(type_, ir.RankedTensorType) else 0
        self.user: int | None = None  # the last node read that uses it (the only one, with one use)


class ShardingGraph:
    """Nodes, slots and meshes of one module."""

    def __init__(self, module: ir.Operation, conservative: bool):
        self.module = module.operation
        self.conservative = conservative
        self.nodes: list[Node] = []
        self.slots: list[Slot] = []
        self.meshes: dict[str, Mesh] = {}
        self.funcs: list[FuncResults] = []
        self.groups: dict[int, list[int]] = {}
        for op in self.module.regions[0].blocks[0].operations:
            if op.operation.name == "sdy.mesh":
                op = op.operation
                self.meshes[ir.StringAttr(op.attributes["sym_name"]).value] = Mesh.from_attr(op.attributes["mesh"])
        self.cache = step_cache_for(self.meshes)
        self.debug_info = None  # a PropagationDebugInfo recording each step, when a debug option is on
        self._node_of: dict[ir.Operation, int] = {}
        self._slot_of: dict[ir.Value, int] = {}
        self._values: dict[ir.Value, _ValueInfo] = {}  # every operand and result, while reading
        # Per value id: how many live nodes use the value, and the node defining it (None for a block argument).
        self.use_counts: list[int] = []
        self.producers: list[int | None] = []
        self._terminators: set[int] = set()  # nodes that are their block's terminator
        self._read()

    # ------------------------------------------------------------------
    # Reading
    # ------------------------------------------------------------------

    def _read(self) -> None:
        body = self.module.regions[0].blocks[0]
        for op in body.operations:
            self._add_nodes(op.operation, None)
        self._func_edges = FuncEdges(self.module, [node.op for node in self.nodes if node.name == "func.call"])
        self._notify_targets = [self._notify_target(index, node) for index, node in enumerate(self.nodes)]
        for index, node in enumerate(self.nodes):
            if node.name == "func.func" and node.op.regions[0].blocks:  # not a declaration
                for argument in node.op.regions[0].blocks[0].arguments:
                    self.slot(argument)  # unused arguments have shardings too
            elif node.name in edges.REGION_EDGE_OPS:
                # Every edge owner has a slot: setting one sets its unset siblings too.
                for value in edges.block_arg_edge_owners(node.op) + edges.result_edge_owners(node.op):
                    self.slot(value)
            self._describe(index, node)
        self._mark_erasable()
        for slot_value, slot_id in self._slot_of.items():
            self.slots[slot_id].notify = tuple(self._notify_list(slot_value, self.slots[slot_id].owner))
        main = main_func(self.module)
        if main is not None:
            self._read_func_results(self.node_of(main), self.nodes[self.node_of(main)])
        self._read_sharding_groups()
        # What only reading needs goes before propagation starts: a handle and a record per value of the module.
        del self._values, self._notify_targets, self._terminators

    def _mark_erasable(self) -> None:
        """Marks the nodes the driver erases once their results are unused: those without effects, their own
        or, where their effects are recursive, those of a nested op."""
        nodes = self.nodes
        effects = [has_own_effects(node.op, node.name) for node in nodes]
        for index in reversed(range(len(nodes))):  # a nested node comes after its parent
            parent = nodes[index].parent
            if effects[index] and parent is not None and nodes[parent].name in RECURSIVE_EFFECTS:
                effects[parent] = True
        for index, node in enumerate(nodes):
            node.erasable = bool(node.results) and not effects[index] and index not in self._terminators

    def _add_nodes(self, op: ir.Operation, parent: int | None) -> int:
        index = len(self.nodes)
        self.nodes.append(Node(op, sys.intern(op.name), parent))
        self._node_of[op] = index
        for region in op.regions:
            for block in region.blocks:
                last = None
                for nested in block.operations:
                    last = self._add_nodes(nested.operation, index)
                # Only the last op of a block can be its terminator.
                if last is not None and self.nodes[last].op.has_trait(ir.IsTerminatorTrait):
                    self._terminators.add(last)
        return index

    def node_of(self, op: ir.Operation) -> int:
        return self._node_of[op.operation]

    def slot(self, value: ir.Value) -> int | None:
        """The slot holding `value`'s sharding (shared by all targets of an edge); None if unshardable."""
        slot_id = self._slot_of.get(value)
        if slot_id is not None:
            return slot_id  # only values that hold their own sharding are keys
        owner = self._shardable_value(value)
        if owner is None:
            return None
        slot_id = self._slot_of.get(owner)
        if slot_id is None:
            slot_id = self._new_value_slot(owner)
            self._slot_of[owner] = slot_id
        return slot_id

    def _shardable_value(self, value: ir.Value) -> ir.Value | None:
        if isinstance(value, ir.OpResult) and value.owner.name not in edges.DATA_FLOW_OPS:
            return value  # the common case: a result of an op without edges
        edge_owner = edges.edge_owner_of_target(value)
        if edge_owner is not None:
            # Without its sdy.data_flow_edge, the edge owner holds the sharding (a while's result for its body argument).
            edge = edges.edge_user(edge_owner)
            return edge.results[0] if edge is not None else edge_owner
        if isinstance(value, ir.OpResult):
            return value
        if edges.owning_op(value).name == "func.func":
            return value
        return None  # e.g. the scalar arguments of a reduction body

    def _new_value_slot(self, value: ir.Value) -> int:
        rank = len(shape_of(value))
        owner_op = edges.owning_op(value)
        if isinstance(value, ir.OpResult):
            return self._new_result_slot(self.node_of(owner_op), value.result_number, rank)
        if owner_op.name in edges.REGION_EDGE_OPS:
            shardings = block_arg_owner_shardings(owner_op)
            sharding = shardings[value.arg_number] if shardings else None
            return self._add_slot(Slot(SlotKind.ARG_EDGE_OWNER, sharding, rank, self.node_of(owner_op), value.arg_number))
        attrs = ir.DictAttr(ir.ArrayAttr(owner_op.attributes["arg_attrs"])[value.arg_number]) if (
            "arg_attrs" in owner_op.attributes
        ) else None
        slot = Slot(SlotKind.FUNC_ARG, _sharding_in(attrs), rank, self.node_of(owner_op), value.arg_number)
        return self._add_slot(slot)

    def _new_result_slot(self, owner: int, number: int, rank: int, attributes: ir.OpAttributeMap | None = None) -> int:
        """A slot for result `number` of node `owner` (whose attributes the caller may pass along)."""
        node = self.nodes[owner]
        if node.name in edges.REGION_EDGE_OPS:
            shardings = result_owner_shardings(node.op)
            sharding = shardings[number] if shardings else None
            return self._add_slot(Slot(SlotKind.RESULT_EDGE_OWNER, sharding, rank, owner, number))
        if attributes is None:
            attributes = node.op.attributes
        own_attr = _OWN_SHARDING_ATTRS.get(node.name)
        if own_attr is None and "out_sharding" in attributes:
            own_attr = "out_sharding"
        if own_attr is not None:
            sharding = TensorSharding.from_attr(attributes[own_attr]) if own_attr in attributes else None
            return self._add_slot(Slot(SlotKind.OWN_ATTR, sharding, rank, owner, 0))
        sharding = None
        if SHARDING in attributes:
            sharding = TensorShardingPerValue.from_attr(attributes[SHARDING]).shardings[number]
        return self._add_slot(Slot(SlotKind.OP_RESULT, sharding, rank, owner, number))

    def _add_slot(self, slot: Slot) -> int:
        slot.sharding = self.cache.intern(slot.sharding)
        self.slots.append(slot)
        return len(self.slots) - 1

    def _new_value(self, value: ir.Value, slot: int | None, producer: int | None) -> _ValueInfo:
        info = self._values[value] = _ValueInfo(len(self.use_counts), slot, value.type)
        self.use_counts.append(0)
        self.producers.append(producer)
        return info

    def _operand_info(self, value: ir.Value) -> _ValueInfo:
        """The info of an operand not defined by an op read before it (a block argument, say)."""
        producer = self._node_of.get(value.owner.operation) if isinstance(value, ir.OpResult) else None
        return self._new_value(value, self.slot(value), producer)

    def _describe(self, index: int, node: Node) -> None:
        op = node.op
        name = node.name
        values = self._values
        counts = self.use_counts
        operand_infos = []
        for value in op.operands:
            info = values.get(value)
            if info is None:
                info = self._operand_info(value)
            counts[info.id] += 1
            info.user = index
            operand_infos.append(info)
        attributes = op.attributes
        result_infos = []
        for number, value in enumerate(op.results):
            info = values.get(value)
            if info is None:
                info = self._new_value(value, self._slot_of.get(value), index)
                if info.slot is None:
                    if name in edges.DATA_FLOW_OPS:
                        info.slot = self.slot(value)  # an edge may hold its sharding
                    else:
                        info.slot = self._slot_of[value] = self._new_result_slot(index, number, info.rank, attributes)
            result_infos.append(info)
        if operand_infos:
            node.operands = tuple([info.slot for info in operand_infos])
            node.operand_values = tuple([info.id for info in operand_infos])
            tensors = tuple([info.id for info in operand_infos if info.rank])
            node.tensor_operand_values = node.operand_values if tensors == node.operand_values else tensors
        if result_infos:
            node.results = tuple([info.slot for info in result_infos])
            node.result_values = tuple([info.id for info in result_infos])
        node.use_counts = counts
        node.elementwise = is_elementwise(op, name)
        node.offload = name == "stablehlo.custom_call" and ir.StringAttr(
            attributes["call_target_name"]
        ).value in ("MoveToHost", "MoveToDevice")
        if name == FUNC_EDGE_OP:
            node.kind = NodeKind.EDGE
            node.operands = tuple([self.slot(v) for v in self._func_edges.sources(op)])
            node.rule = self.cache.intern(identity_rule(shape_of(result_infos[0].type), len(node.operands), 1))
        elif name == edges.EDGE_OP:
            if not edges.is_edge_owner(op.operands[0]):
                # Shardy's C++ crashes reading the sources of such an edge (it writes one only for sinking).
                op.location.emit_error(
                    "'sdy.data_flow_edge' op input is no edge owner (a result of a data-flow op or a block argument "
                    "of a named or manual computation): propagation cannot tell where its sharding comes from"
                )
                raise PassFailure()
            node.kind = NodeKind.EDGE
            node.operands = tuple([self.slot(v) for v in edges.edge_sources(op)])
            node.rule = self.cache.intern(identity_rule(shape_of(result_infos[0].type), len(node.operands), 1))
            node.edge_transform = _manual_edge_transform(op)
        elif name == "sdy.propagation_barrier":
            node.kind = NodeKind.BARRIER
            node.rule = self.cache.intern(identity_rule(shape_of(result_infos[0].type), 1, 1))
            node.allowed_direction = ir.IntegerAttr(attributes["allowed_direction"]).value
        else:
            rule = self._rule_of(op, name, attributes, operand_infos, result_infos)
            if rule is None:
                return  # inert: never visited
            node.kind = NodeKind.RULE
            node.rule = self.cache.intern(rule)
        self.prepare_for_steps(node, self.conservative and node.kind is NodeKind.RULE)

    def prepare_for_steps(self, node: Node, conservative: bool) -> None:
        """Sets what the driver's step cache needs of `node` (its slots must be final), and whether
        its steps are conservative."""
        node.conservative = conservative
        # The kind follows from the name and whether there is a rule.
        node.signature = self.cache.token((
            id(node.rule), node.name, node.elementwise, node.offload, node.allowed_direction, conservative,
            len(node.operands),
        ))
        node.signature_operands = len(node.operands)
        node.slot_objects = tuple([_NO_SLOT if s is None else self.slots[s] for s in node.operands + node.results])

    def _rule_of(
        self,
        op: ir.Operation,
        name: str,
        attributes: ir.OpAttributeMap,
        operands: list[_ValueInfo],
        results: list[_ValueInfo],
    ) -> OpShardingRule | None:
        """The op's sharding rule, created once per distinct signature: ops alike in name, operand and
        result types and attributes other than their shardings get the same rule. An op with regions
        is its own signature (a rule may read its body) unless its rule is known not to read them, and
        so is one whose rule reads its operands' producers, or with an attribute the bindings cannot
        read (a dense attribute of complex elements, for one)."""
        if (len(op.regions) and rule_reads_regions(name)) or rule_reads_producers(name):
            return get_or_create_rule(op, self.conservative)
        try:
            signature = (
                self.conservative,
                name,
                tuple([info.type for info in operands]),
                tuple([info.type for info in results]),
                tuple([(key, attributes[key]) for key in attributes if key != SHARDING]),
            )
        except TypeError:
            return get_or_create_rule(op, self.conservative)
        rule = self.cache.rules.get(signature)
        if rule is None:
            rule = get_or_create_rule(op, self.conservative)
            if rule is not None:  # an op without one is asked again: it may be the one to warn about (once)
                self.cache.rules[signature] = rule
        return rule

    def _notify_target(self, index: int, node: Node) -> int | None:
        """The node to notify when a value this node uses changes, or None when that depends on
        the use (the node feeds data-flow edges or function-call edges)."""
        if node.name in ("func.call", "func.return") or node.name in edges.RESULT_EDGE_OPS:
            return None
        if index in self._terminators:
            parent = node.parent
            if parent is None or self.nodes[parent].name in edges.DATA_FLOW_OPS:
                return None
            return parent
        return index

    def _notify_list(self, value: ir.Value, owner: int) -> list[int]:
        """Nodes Shardy revisits when `value`'s sharding (held by node `owner`) changes, in its order."""
        notify: list[int] = []
        owner_node = self.nodes[owner]
        if owner_node.name == edges.EDGE_OP:
            for target in edges.non_owner_targets(owner_node.op):
                notify.extend(self._users_to_notify(target))
        # The defining op of a result, or the op owning the block of an argument.
        notify.append(owner)
        notify.extend(self._users_to_notify(value))
        return notify

    def _users_to_notify(self, value: ir.Value) -> list[int]:
        info = self._values.get(value)
        if info is None:
            return []  # every used value is some read op's operand
        targets = self._notify_targets
        if self.use_counts[info.id] == 1:
            target = targets[info.user]
            if target is not None:
                return [target]
        notify = []
        for use in value.uses:
            user = use.owner.operation
            target = targets[self._node_of[user]]
            if target is not None:
                notify.append(target)
                continue
            func_edges = self._func_edges.edges_fed_by(use)
            if func_edges:
                notify.extend(self.node_of(edge) for edge in func_edges)
                continue
            edge = edges.edge_of_source(use)
            if edge is not None:
                notify.append(self.node_of(edge))
            elif user.has_trait(ir.IsTerminatorTrait):
                notify.append(self.node_of(user.parent))
            else:
                notify.append(self.node_of(user))
        return notify

    def _read_func_results(self, index: int, node: Node) -> None:
        func = node.op
        operations = func.regions[0].blocks[0].operations
        terminator = operations[len(operations) - 1].operation
        result_attrs = ir.ArrayAttr(func.attributes["res_attrs"]) if "res_attrs" in func.attributes else None
        returned, results, shapes = [], [], []
        for number, value in enumerate(terminator.operands):
            is_tensor = isinstance(value.type, ir.RankedTensorType) and value.type.has_static_shape
            returned.append(self.slot(value) if is_tensor else None)
            shapes.append(tuple(value.type.shape) if is_tensor else None)
            sharding = _sharding_in(ir.DictAttr(result_attrs[number])) if result_attrs is not None else None
            sharding = self.cache.intern(sharding)
            self.slots.append(Slot(SlotKind.FUNC_RESULT, sharding, len(shape_of(value)), index, number))
            results.append(len(self.slots) - 1)
        self.funcs.append(FuncResults(index, returned, results, shapes))

    def _read_sharding_groups(self) -> None:
        """Every member's slot is set when the group is; as Shardy keys groups by the grouped value, only a
        member that holds its own sharding (not an edge's target, say) sets the group when it changes."""
        for node in self.nodes:
            if node.name == "sdy.sharding_group":
                group = ir.IntegerAttr(node.op.attributes["group_id"]).value
                slot_id = node.operands[0]
                if slot_id is None:
                    continue
                members = self.groups.setdefault(group, [])
                if slot_id not in members:
                    members.append(slot_id)
                if self._slot_of.get(node.op.operands[0]) == slot_id:
                    self.slots[slot_id].group = group

    # ------------------------------------------------------------------
    # Updating
    # ------------------------------------------------------------------

    def set_sharding(self, slot_id: int, sharding: TensorSharding) -> None:
        """Sets a slot as Shardy's setSharding does (an op's other results become fully open)."""
        slot = self.slots[slot_id]
        if slot.kind in _SIBLING_KINDS and slot.owner is not None and slot.sharding is None:
            for other in self._siblings(slot):
                if other.sharding is None:
                    other.sharding = self.cache.intern(TensorSharding.fully_open(sharding.mesh, other.rank))
                    other.changed = True
        slot.sharding = self.cache.intern(sharding)
        slot.changed = True

    def _siblings(self, slot: Slot) -> list[Slot]:
        """The other slots stored in the same attribute of the same op as `slot`."""
        node = self.nodes[slot.owner]
        if slot.kind is SlotKind.ARG_EDGE_OWNER:
            values = edges.block_arg_edge_owners(node.op)
        else:
            values = list(node.op.results)
        siblings = []
        for value in values:
            other_id = self._slot_of.get(value)
            if other_id is not None and self.slots[other_id] is not slot and self.slots[other_id].kind is slot.kind:
                siblings.append(self.slots[other_id])
        return siblings

    def replace_sharding(self, slot_id: int, sharding: TensorSharding) -> None:
        """Replaces a slot's sharding in place, touching nothing else (Shardy's transformSharding)."""
        slot = self.slots[slot_id]
        slot.sharding = self.cache.intern(sharding)
        slot.changed = True

    # ------------------------------------------------------------------
    # Writing back
    # ------------------------------------------------------------------

    def write_back(self, keep_sharding_rules: bool) -> None:
        """Writes every changed sharding to the IR, erases erased ops, and sets or drops rules."""
        # Shardings and rules are interned, so the attributes made of them are cached by identity.
        attr_cache: dict[int, ir.Attribute] = {}

        def attr(sharding: TensorSharding) -> ir.Attribute:
            cached = attr_cache.get(id(sharding))
            if cached is None:
                cached = attr_cache[id(sharding)] = sharding.to_attr()
            return cached

        per_op_results: dict[int, None] = {}
        func_args: dict[int, None] = {}
        func_results: dict[int, None] = {}
        edge_owners: dict[tuple[int, SlotKind], None] = {}
        for slot in self.slots:
            if not slot.changed:
                continue
            if slot.kind is SlotKind.OP_RESULT:
                per_op_results[slot.owner] = None
            elif slot.kind in (SlotKind.RESULT_EDGE_OWNER, SlotKind.ARG_EDGE_OWNER):
                edge_owners[slot.owner, slot.kind] = None
            elif slot.kind is SlotKind.OWN_ATTR:
                op = self.nodes[slot.owner].op
                op.attributes[_own_sharding_attr(op)] = attr(slot.sharding)
            elif slot.kind is SlotKind.FUNC_ARG:
                func_args[slot.owner] = None
            else:
                func_results[slot.owner] = None
        per_value_attrs: dict[tuple[int, ...], ir.Attribute] = {}
        for node_id in per_op_results:
            node = self.nodes[node_id]
            shardings = tuple(self.slots[s].sharding for s in node.results)
            key = tuple(map(id, shardings))
            if key not in per_value_attrs:
                per_value_attrs[key] = TensorShardingPerValue(shardings).to_attr()
            node.op.attributes[SHARDING] = per_value_attrs[key]
        for node_id, kind in edge_owners:
            self._write_edge_owner_shardings(node_id, kind)
        for node_id in func_args:
            self._write_func_arg_attrs(node_id, attr)
        for node_id in func_results:
            self._write_func_result_attrs(node_id, attr)
        rule_attrs: dict[int, ir.Attribute] = {}
        for node in self.nodes:
            if node.erased:
                continue
            if keep_sharding_rules and node.kind is NodeKind.RULE:
                rule_attr = rule_attrs.get(id(node.rule))
                if rule_attr is None:
                    rule_attr = rule_attrs[id(node.rule)] = node.rule.to_attr()
                node.op.attributes["sdy.sharding_rule"] = rule_attr
            elif not keep_sharding_rules and "sdy.sharding_rule" in node.op.attributes:
                rule = node.rule
                if rule is None or not rule.is_custom:
                    del node.op.attributes["sdy.sharding_rule"]
        for node in reversed(self.nodes):
            if node.erased and node.op is not None:
                node.op.erase()

    def _write_edge_owner_shardings(self, node_id: int, kind: SlotKind) -> None:
        """Writes the in_shardings or out_shardings of a named or manual computation (all set by then)."""
        op = self.nodes[node_id].op
        if kind is SlotKind.ARG_EDGE_OWNER:
            owners, read, write = edges.block_arg_edge_owners(op), block_arg_owner_shardings, set_block_arg_owner_shardings
        else:
            owners, read, write = list(op.results), result_owner_shardings, set_result_owner_shardings
        shardings = read(op) or [None] * len(owners)
        for index, value in enumerate(owners):
            slot_id = self._slot_of.get(value)
            if slot_id is not None and self.slots[slot_id].kind is kind:
                shardings[index] = self.slots[slot_id].sharding
        write(op, shardings)

    def _write_func_arg_attrs(self, node_id: int, attr) -> None:
        func = self.nodes[node_id].op
        args = func.regions[0].blocks[0].arguments
        old = ir.ArrayAttr(func.attributes["arg_attrs"]) if "arg_attrs" in func.attributes else None
        new = []
        for number, value in enumerate(args):
            entries = _dict_entries(old[number]) if old is not None else {}
            slot_id = self._slot_of.get(value)
            if slot_id is not None and self.slots[slot_id].changed:
                entries[SHARDING] = attr(self.slots[slot_id].sharding)
            new.append(ir.DictAttr.get(entries))
        func.attributes["arg_attrs"] = ir.ArrayAttr.get(new)

    def _write_func_result_attrs(self, node_id: int, attr) -> None:
        func = self.nodes[node_id].op
        results = next(f for f in self.funcs if f.func == node_id).results
        old = ir.ArrayAttr(func.attributes["res_attrs"]) if "res_attrs" in func.attributes else None
        new = []
        for number, slot_id in enumerate(results):
            entries = _dict_entries(old[number]) if old is not None else {}
            if self.slots[slot_id].changed:
                entries[SHARDING] = attr(self.slots[slot_id].sharding)
            new.append(ir.DictAttr.get(entries))
        func.attributes["res_attrs"] = ir.ArrayAttr.get(new)


# Slots of which an op keeps all or none: setting one sets the unset others to fully open shardings.
_SIBLING_KINDS = (SlotKind.OP_RESULT, SlotKind.RESULT_EDGE_OWNER, SlotKind.ARG_EDGE_OWNER)

_OWN_SHARDING_ATTRS = {
    "sdy.data_flow_edge": "sharding",
    "sdy.sharding_constraint": "sharding",
    "sdy.reshard": "sharding",
}


def _own_sharding_attr(op: ir.Operation) -> str:
    return _OWN_SHARDING_ATTRS.get(op.name, "out_sharding")


def _sharding_in(attrs: ir.DictAttr | None) -> TensorSharding | None:
    if attrs is None or SHARDING not in attrs:
        return None
    return TensorSharding.from_attr(attrs[SHARDING])


def _dict_entries(attr: ir.Attribute) -> dict[str, ir.Attribute]:
    dictionary = ir.DictAttr(attr)
    return {named.name: named.attr for named in (dictionary[i] for i in range(len(dictionary)))}


def _manual_edge_transform(edge: ir.Operation) -> ManualEdgeTransform | None:
    owner_value = edge.operands[0]
    owner = edges.owning_op(owner_value)
    if owner.name != "sdy.manual_computation":
        return None
    manual_axes = frozenset(ManualAxes.from_attr(owner.attributes["manual_axes"]).axes)
    on_body_argument = isinstance(owner_value, ir.BlockArgument)
    if on_body_argument:
        outer = owner.attributes["in_shardings"], owner_value.arg_number
    else:
        outer = owner.attributes["out_shardings"], owner_value.result_number
    shardings = TensorShardingPerValue.from_attr(outer[0]).shardings
    return ManualEdgeTransform(shardings[outer[1]], manual_axes, on_body_argument)

