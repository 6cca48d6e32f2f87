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

from jaxlib.mlir import ir

from pysdy.dialects.sdy import ManualAxes, Mesh, OpShardingRule, TensorSharding, TensorShardingPerValue
from pysdy.passes.common import data_flow as edges
from pysdy.passes.propagation.dead_ops import may_be_erased_when_unused
from pysdy.passes.propagation.elementwise import is_elementwise
from pysdy.passes.propagation.func_data_flow_edges import FUNC_EDGE_OP, FuncEdges
from pysdy.passes.propagation.manual_computation import ManualEdgeTransform
from pysdy.passes.propagation.rules import get_or_create_rule
from pysdy.passes.propagation.rules.builder import identity_rule, shape_of
from pysdy.passes.propagation.step_cache import StepCache

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


@dataclasses.dataclass
class Node:
    op: ir.Operation
    name: str
    parent: int | None  # the enclosing node, None for ops directly in the module
    kind: NodeKind = NodeKind.INERT
    rule: OpShardingRule | None = None
    operands: list[int | None] = dataclasses.field(default_factory=list)  # slot ids
    results: list[int | None] = dataclasses.field(default_factory=list)
    allowed_direction: int | None = None  # of a propagation barrier: a PropagationDirection value
    erasable: bool = False  # pure: erased by the driver once its results are unused
    # Use counts, shared by every node touching the value (erasing an op lowers them).
    result_uses: list[list[int]] = dataclasses.field(default_factory=list)
    operand_uses: list[list[int]] = dataclasses.field(default_factory=list)
    tensor_operand_uses: list[list[int]] = dataclasses.field(default_factory=list)  # non-scalar operands only
    operand_producers: list[int | None] = dataclasses.field(default_factory=list)  # node of each operand
    erased: bool = False
    elementwise: bool = False
    edge_transform: ManualEdgeTransform | None = None  # of an edge of a manual computation
    offload: bool = False  # a MoveToHost / MoveToDevice custom call
    # Set by ShardingGraph.prepare_for_steps: what the step cache keys a visit by.
    signature: int = -1  # a token for everything of the node a step depends on
    signature_operands: int = 0  # how many of `slot_objects` are operands
    slot_objects: list[Slot] = dataclasses.field(default_factory=list)  # operands then results

    @property
    def has_multi_use_operand(self) -> bool:
        """Whether a non-scalar operand has other uses (op-priority steps care)."""
        return any(counter[0] != 1 for counter in self.tensor_operand_uses)


@dataclasses.dataclass
class Slot:
    """Where one sharding lives, who holds it and whom to notify when it changes."""

    kind: SlotKind
    sharding: TensorSharding | None
    rank: int
    owner: int | None  # node holding the sharding (op result / own attribute); the func for args and results
    index: int  # result number, argument number or function result number
    notify: list[int] = dataclasses.field(default_factory=list)  # nodes to revisit when it changes
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
        self.cache = StepCache()
        self.debug_info = None  # a PropagationDebugInfo recording each step, when a debug option is on
        self._node_of: dict[ir.Operation, int] = {}
        self._slot_of: dict[ir.Value, int] = {}
        self._use_counters: dict[ir.Value, list[int]] = {}
        self._rules: dict[tuple, OpShardingRule | None] = {}
        self._read()

    # ------------------------------------------------------------------
    # Reading
    # ------------------------------------------------------------------

    def _read(self) -> None:
        body = self.module.regions[0].blocks[0]
        self._func_edges = FuncEdges(self.module)
        for op in body.operations:
            self._add_nodes(op.operation, None)
        for op in body.operations:
            op = op.operation
            if op.name == "sdy.mesh":
                self.meshes[ir.StringAttr(op.attributes["sym_name"]).value] = Mesh.from_attr(op.attributes["mesh"])
        for index, node in enumerate(self.nodes):
            if node.name == "func.func":
                for argument in node.op.regions[0].blocks[0].arguments:
                    self.slot(argument)  # unused arguments have shardings too
            self._describe(index, node)
        for slot_value, slot_id in self._slot_of.items():
            self.slots[slot_id].notify = self._notify_list(slot_value)
        main = _main_function(self.module)
        if main is not None:
            self._read_func_results(self.node_of(main), self.nodes[self.node_of(main)])
        self._read_sharding_groups()

    def _add_nodes(self, op: ir.Operation, parent: int | None) -> None:
        index = len(self.nodes)
        self.nodes.append(Node(op, op.name, parent))
        self._node_of[op] = index
        for region in op.regions:
            for block in region.blocks:
                for nested in block.operations:
                    self._add_nodes(nested.operation, index)

    def _use_counter(self, value: ir.Value) -> list[int]:
        counter = self._use_counters.get(value)
        if counter is None:
            counter = self._use_counters[value] = [_use_count(value)]
        return counter

    def node_of(self, op: ir.Operation) -> int:
        return self._node_of[op.operation]

    def slot(self, value: ir.Value) -> int | None:
        """The slot holding `value`'s sharding (shared by all targets of an edge); None if unshardable."""
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
            edge = edges.edge_user(edge_owner)
            if edge is not None:
                return edge.results[0]
        if isinstance(value, ir.OpResult):
            return value
        if edges.owning_op(value).name == "func.func":
            return value
        return None  # e.g. the scalar arguments of a reduction body

    def _new_value_slot(self, value: ir.Value) -> int:
        rank = len(shape_of(value))
        owner_op = edges.owning_op(value)
        if isinstance(value, ir.BlockArgument):
            attrs = ir.DictAttr(ir.ArrayAttr(owner_op.attributes["arg_attrs"])[value.arg_number]) if (
                "arg_attrs" in owner_op.attributes
            ) else None
            sharding = _sharding_in(attrs)
            slot = Slot(SlotKind.FUNC_ARG, sharding, rank, self.node_of(owner_op), value.arg_number)
        elif _has_own_sharding(owner_op):
            attr = owner_op.attributes[_own_sharding_attr(owner_op)] if _own_sharding_attr(owner_op) in owner_op.attributes else None
            sharding = TensorSharding.from_attr(attr) if attr is not None else None
            slot = Slot(SlotKind.OWN_ATTR, sharding, rank, self.node_of(owner_op), 0)
        else:
            sharding = None
            if SHARDING in owner_op.attributes:
                per_value = TensorShardingPerValue.from_attr(owner_op.attributes[SHARDING])
                sharding = per_value.shardings[value.result_number]
            slot = Slot(SlotKind.OP_RESULT, sharding, rank, self.node_of(owner_op), value.result_number)
        slot.sharding = self.cache.intern(slot.sharding)
        self.slots.append(slot)
        return len(self.slots) - 1

    def _describe(self, index: int, node: Node) -> None:
        op = node.op
        operands, results = list(op.operands), list(op.results)
        node.operands = [self.slot(v) for v in operands] if op.name != "func.func" else []
        node.results = [self.slot(v) for v in results]
        node.result_uses = [self._use_counter(v) for v in results]
        node.operand_uses = [self._use_counter(v) for v in operands]
        node.tensor_operand_uses = [
            counter for value, counter in zip(operands, node.operand_uses) if len(shape_of(value)) > 0
        ]
        node.operand_producers = [
            self._node_of.get(v.owner.operation) if isinstance(v, ir.OpResult) else None for v in operands
        ]
        node.erasable = may_be_erased_when_unused(op)
        node.elementwise = is_elementwise(op)
        node.offload = op.name == "stablehlo.custom_call" and ir.StringAttr(
            op.attributes["call_target_name"]
        ).value in ("MoveToHost", "MoveToDevice")
        if node.name == FUNC_EDGE_OP:
            node.kind = NodeKind.EDGE
            node.operands = [self.slot(v) for v in self._func_edges.sources(op)]
            node.rule = self.cache.intern(identity_rule(shape_of(op.results[0]), len(node.operands), 1))
        elif node.name == edges.EDGE_OP:
            node.kind = NodeKind.EDGE
            node.operands = [self.slot(v) for v in edges.edge_sources(op)]
            node.rule = self.cache.intern(identity_rule(shape_of(op.results[0]), len(node.operands), 1))
            node.edge_transform = _manual_edge_transform(op)
        elif node.name == "sdy.propagation_barrier":
            node.kind = NodeKind.BARRIER
            node.rule = self.cache.intern(identity_rule(shape_of(op.results[0]), 1, 1))
            node.allowed_direction = ir.IntegerAttr(op.attributes["allowed_direction"]).value
        else:
            rule = self._rule_of(op)
            if rule is not None:
                node.kind = NodeKind.RULE
                node.rule = self.cache.intern(rule)
        self.prepare_for_steps(node)

    def prepare_for_steps(self, node: Node) -> None:
        """Sets what the driver's step cache needs of `node` (its slots must be final)."""
        conservative = self.conservative and node.kind is NodeKind.RULE
        node.signature = self.cache.token((
            id(node.rule), node.name, node.elementwise, node.offload, node.kind, node.allowed_direction,
            conservative, len(node.operands),
        ))
        node.signature_operands = len(node.operands)
        node.slot_objects = [_NO_SLOT if s is None else self.slots[s] for s in node.operands + node.results]

    def _rule_of(self, op: ir.Operation) -> OpShardingRule | None:
        """The op's sharding rule, created once per distinct signature: ops alike in name, operand and
        result types and attributes other than their shardings get the same rule. An op with regions
        is its own signature (a rule may read its body), and so is one with an attribute the bindings
        cannot read (a dense attribute of complex elements, for one)."""
        if len(op.regions):
            return get_or_create_rule(op, self.conservative)
        attributes = op.attributes
        try:
            signature = (
                op.name,
                tuple(value.type for value in op.operands),
                tuple(value.type for value in op.results),
                tuple((name, attributes[name]) for name in attributes if name != SHARDING),
            )
        except TypeError:
            return get_or_create_rule(op, self.conservative)
        if signature not in self._rules:
            self._rules[signature] = get_or_create_rule(op, self.conservative)
        return self._rules[signature]

    def _notify_list(self, value: ir.Value) -> list[int]:
        """Nodes Shardy revisits when `value`'s sharding changes, in its order."""
        notify: list[int] = []
        owner_op = edges.owning_op(value)
        if owner_op.name == edges.EDGE_OP:
            for target in edges.non_owner_targets(owner_op):
                notify.extend(self._users_to_notify(target))
        # The defining op of a result, or the op owning the block of an argument.
        notify.append(self.node_of(owner_op))
        notify.extend(self._users_to_notify(value))
        return notify

    def _users_to_notify(self, value: ir.Value) -> list[int]:
        notify = []
        for use in value.uses:
            user = use.owner.operation
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
        block = func.regions[0].blocks[0]
        terminator = list(block.operations)[-1].operation
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
        for node in self.nodes:
            if node.name == "sdy.sharding_group":
                group = ir.IntegerAttr(node.op.attributes["group_id"]).value
                slot_id = node.operands[0]
                if slot_id is None:
                    continue
                members = self.groups.setdefault(group, [])
                if slot_id not in members:
                    members.append(slot_id)
                self.slots[slot_id].group = group

    # ------------------------------------------------------------------
    # Updating
    # ------------------------------------------------------------------

    def set_sharding(self, slot_id: int, sharding: TensorSharding) -> None:
        """Sets a slot as Shardy's setSharding does (an op's other results become fully open)."""
        slot = self.slots[slot_id]
        if slot.kind is SlotKind.OP_RESULT and slot.owner is not None:
            node = self.nodes[slot.owner]
            for other in node.results:
                if other is not None and other != slot_id and self.slots[other].sharding is None:
                    other_slot = self.slots[other]
                    other_slot.sharding = self.cache.intern(TensorSharding.fully_open(sharding.mesh, other_slot.rank))
                    other_slot.changed = True
        slot.sharding = self.cache.intern(sharding)
        slot.changed = True

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
        attr_cache: dict[TensorSharding, ir.Attribute] = {}

        def attr(sharding: TensorSharding) -> ir.Attribute:
            cached = attr_cache.get(sharding)
            if cached is None:
                cached = attr_cache[sharding] = sharding.to_attr()
            return cached

        per_op_results: dict[int, None] = {}
        func_args: dict[int, None] = {}
        func_results: dict[int, None] = {}
        for slot in self.slots:
            if not slot.changed:
                continue
            if slot.kind is SlotKind.OP_RESULT:
                per_op_results[slot.owner] = None
            elif slot.kind is SlotKind.OWN_ATTR:
                op = self.nodes[slot.owner].op
                op.attributes[_own_sharding_attr(op)] = attr(slot.sharding)
            elif slot.kind is SlotKind.FUNC_ARG:
                func_args[slot.owner] = None
            else:
                func_results[slot.owner] = None
        per_value_attrs: dict[tuple[TensorSharding, ...], ir.Attribute] = {}
        for node_id in per_op_results:
            node = self.nodes[node_id]
            shardings = tuple(self.slots[s].sharding for s in node.results)
            if shardings not in per_value_attrs:
                per_value_attrs[shardings] = TensorShardingPerValue(shardings).to_attr()
            node.op.attributes[SHARDING] = per_value_attrs[shardings]
        for node_id in func_args:
            self._write_func_arg_attrs(node_id, attr)
        for node_id in func_results:
            self._write_func_result_attrs(node_id, attr)
        rule_attrs: dict[OpShardingRule, ir.Attribute] = {}
        for node in self.nodes:
            if node.erased:
                continue
            if keep_sharding_rules and node.kind is NodeKind.RULE:
                if node.rule not in rule_attrs:
                    rule_attrs[node.rule] = node.rule.to_attr()
                node.op.attributes["sdy.sharding_rule"] = rule_attrs[node.rule]
            elif not keep_sharding_rules and "sdy.sharding_rule" in node.op.attributes:
                rule = node.rule
                if rule is None or not rule.is_custom:
                    del node.op.attributes["sdy.sharding_rule"]
        for node in reversed(self.nodes):
            if node.erased and node.op is not None:
                node.op.erase()

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


_OWN_SHARDING_ATTRS = {
    "sdy.data_flow_edge": "sharding",
    "sdy.sharding_constraint": "sharding",
    "sdy.reshard": "sharding",
}


def _has_own_sharding(op: ir.Operation) -> bool:
    return op.name in _OWN_SHARDING_ATTRS or "out_sharding" in op.attributes


def _own_sharding_attr(op: ir.Operation) -> str:
    return _OWN_SHARDING_ATTRS.get(op.name, "out_sharding")


def _sharding_in(attrs: ir.DictAttr | None) -> TensorSharding | None:
    if attrs is None or SHARDING not in attrs:
        return None
    return TensorSharding.from_attr(attrs[SHARDING])


def _dict_entries(attr: ir.Attribute) -> dict[str, ir.Attribute]:
    dictionary = ir.DictAttr(attr)
    return {named.name: named.attr for named in (dictionary[i] for i in range(len(dictionary)))}


def _main_function(module: ir.Operation) -> ir.Operation | None:
    """The function Shardy exchanges result shardings for: `@main`, or the module's only function."""
    funcs = [op.operation for op in module.regions[0].blocks[0].operations if op.operation.name == "func.func"]
    for func in funcs:
        if ir.StringAttr(func.attributes["sym_name"]).value == "main":
            return func
    return funcs[0] if len(funcs) == 1 else None


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


def _use_count(value: ir.Value) -> int:
    return sum(1 for _ in value.uses)
