"""Propagation's debug info: the user sharding each axis came from, and the step and edge that brought it.

With `debug-sharding-origins`, every value that gained axes records, per axis,
the user sharding it came from: a function input or output (`input: i`,
`output: i`), a sharding constraint (`constraint_k`) or a manual computation
input or output (`mc_k_input: i`, `mc_k_output: i`); a sharding's own axes
read `self`. Axes a sharding group gives its members take the origin they have
in the member that brought them (jaxlib records none, and then prints garbage
or crashes). With `debug-propagation-edge-sharding`, every op records, per
propagation step that changed it, which operand or result brought each new
axis to which of its operands and results, one entry per axis and source. As
Shardy, the edges of function results are all kept on result 0.

Debug info already on the module (an earlier pass's) is kept where nothing
new is recorded, as jaxlib keeps it: steps are numbered on from the last step
an op records, an op's or value's new info replaces its old, other results
keep theirs, and origins naming their own value read `self`.

The recording follows the propagation: `record` is called by the driver after
each step that changed a sharding, and `write` puts everything on the IR once
propagation is over. sdy-apply-sharding-constraints records the same way, one
step per constraint whose sharding it gives the constraint's input. Nothing
here runs when both options are off.
"""

from __future__ import annotations

import dataclasses
import re

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import AxisRef, Mesh, TensorSharding, TensorShardingPerValue
from pysdy.passes.common import func_attrs
from pysdy.passes.common.data_flow import MANUAL_COMPUTATION, edge_user
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.propagation import axis_refs
from pysdy.passes.propagation.op_step import propagated_projection
from pysdy.passes.propagation.sharding_graph import Node, ShardingGraph, SlotKind
from pysdy.passes.propagation.sharding_projection import ShardingProjection, TensorFactorShardings
from pysdy.passes.registry import PassFailure

SHARDING_ORIGINS = "sdy.sharding_origins"
SHARDING_ORIGIN_NAME = "sdy.sharding_origin_name"
PROPAGATION_EDGES = "sdy.propagation_edges"
CONSTRAINT = "sdy.sharding_constraint"
DATA_FLOW_EDGE = "sdy.data_flow_edge"

OPERAND, RESULT = 0, 1  # the kinds of an edge's ends, in Shardy's order
_KIND_NAMES = ("operand", "result")

_STEP_INDEX = re.compile(r"\{step-(\d+) = ")

# One end of a propagation edge: (OPERAND or RESULT, index in the step's operands or results).
EdgeEnd = tuple[int, int]


@dataclasses.dataclass(frozen=True)
class PropagationEdge:
    source: EdgeEnd
    target: EdgeEnd
    step: int


AxisEdges = dict[AxisRef, list[PropagationEdge]]


@dataclasses.dataclass(frozen=True)
class UserShardings:
    """The user shardings origins are named after, as written before the pass changes any sharding (it
    syncs sharding groups first): constraints (`constraint_k`), manual computation inputs and outputs
    (`mc_k_input: i`, `mc_k_output: i`), function inputs and outputs (`input: i`, `output: i`).

    `origins` lists, in Shardy's order, (value, origin, sharding): each axis of the sharding has that
    origin on the value, unless an earlier entry gave it one. `names` are the ops' origin names.
    """

    origins: tuple[tuple[ir.Value, str, TensorSharding], ...]
    names: tuple[tuple[ir.Operation, str], ...]

    @classmethod
    def read(cls, module: ir.Operation) -> UserShardings:
        origins: list[tuple[ir.Value, str, TensorSharding]] = []
        names: list[tuple[ir.Operation, str]] = []

        def add(value: ir.Value | None, origin: str, sharding: TensorSharding | None = None) -> None:
            if value is not None:
                sharding = get_sharding(value) if sharding is None else sharding
                if sharding is not None:
                    origins.append((value, origin, sharding))

        for number, op in enumerate(nested_ops(module, name=CONSTRAINT)):
            name = f"constraint_{number}"
            names.append((op, name))
            add(op.results[0], name)
            add(op.operands[0], name)
        for number, op in enumerate(nested_ops(module, name=MANUAL_COMPUTATION)):
            name = f"mc_{number}"
            names.append((op, name))
            if not _has_edges(op):
                continue
            in_shardings = TensorShardingPerValue.from_attr(op.attributes["in_shardings"]).shardings
            for index, (argument, sharding) in enumerate(zip(op.regions[0].blocks[0].arguments, in_shardings)):
                add(_edge_result(argument), f"{name}_input: {index}", sharding)
                add(op.operands[index], f"{name}_input: {index}")
            out_shardings = TensorShardingPerValue.from_attr(op.attributes["out_shardings"]).shardings
            for index, (result, sharding) in enumerate(zip(op.results, out_shardings)):
                add(_edge_result(result), f"{name}_output: {index}", sharding)
        for op in module.regions[0].blocks[0].operations:
            func = op.operation
            if func.name != "func.func":
                continue
            for argument in func.regions[0].blocks[0].arguments:
                add(argument, f"input: {argument.arg_number}")
            returned = _terminator(func).operands
            for index, sharding in enumerate(func_attrs.result_shardings(func)):
                if sharding is not None:  # not the returned value's own sharding
                    add(returned[index], f"output: {index}", sharding)
        return cls(tuple(origins), tuple(names))


class PropagationDebugInfo:
    """What one propagation pass records for its debug options, from the graph's first step to its last."""

    def __init__(
        self, graph: ShardingGraph, user_shardings: UserShardings | None, propagation_edges: bool, groups_synced: bool
    ):
        self.graph = graph
        self.sharding_origins = user_shardings is not None
        self.propagation_edges = propagation_edges
        self.step = _first_free_step(graph.module) if propagation_edges else 0
        # Slot -> axis -> origin name; function results are keyed by the slot of the returned value.
        self.origins: dict[int, dict[AxisRef, str]] = {}
        self.op_edges: dict[int, AxisEdges] = {}  # node -> the edges of its steps
        self.func_result_edges: dict[int, AxisEdges] = {}  # func node -> the edges of all its result steps
        self.origin_names: dict[int, str] = {}  # constraint / manual computation node -> its origin name
        self._returned_slot = {result: returned for f in graph.funcs for result, returned in zip(f.results, f.returned)}
        if user_shardings is not None:
            self.origin_names = {graph.node_of(op): name for op, name in user_shardings.names}
            for value, origin, sharding in user_shardings.origins:
                self._add_origins(graph.slot(value), origin, sharding)
            if groups_synced:
                self._share_origins_in_groups()

    @classmethod
    def attach(
        cls, graph: ShardingGraph, user_shardings: UserShardings | None, propagation_edges: bool,
        groups_synced: bool = True,
    ) -> PropagationDebugInfo | None:
        """Starts recording on `graph` if an option is on (origins: `user_shardings` given). Sharding group
        members share origins if the pass synced their shardings (propagation does)."""
        if user_shardings is None and not propagation_edges:
            return None
        graph.debug_info = cls(graph, user_shardings, propagation_edges, groups_synced)
        return graph.debug_info

    # ------------------------------------------------------------------
    # The user shardings everything comes from
    # ------------------------------------------------------------------

    def _add_origins(self, slot_id: int | None, origin: str, sharding: TensorSharding) -> None:
        """Gives each axis of `sharding` `origin`, unless it has one."""
        if slot_id is None:
            return
        for dim in sharding.dims:
            for axis in dim.axes:
                self.origins.setdefault(slot_id, {}).setdefault(axis, origin)

    def _share_origins_in_groups(self) -> None:
        """A member's axes without an origin take the origin of the first member having one for them."""
        for members in self.graph.groups.values():
            for slot_id in members:
                sharding = self.graph.slots[slot_id].sharding
                if sharding is None:
                    continue
                for axis in (axis for dim in sharding.dims for axis in dim.axes):
                    origin = next((self.origins[m][axis] for m in members if axis in self.origins.get(m, {})), None)
                    if origin is not None:
                        self.origins.setdefault(slot_id, {}).setdefault(axis, origin)

    # ------------------------------------------------------------------
    # Recording a step
    # ------------------------------------------------------------------

    def record(
        self,
        node: Node,
        operands: list[int | None],
        results: list[int | None],
        operand_shardings: list[TensorSharding | None],
        result_shardings: list[TensorSharding | None],
        mesh_name: str,
        strategy,
        direction_along_factor,
        conservative: bool,
    ) -> None:
        """Records a step through `node` that changed a sharding, given the shardings it started from."""
        graph = self.graph
        mesh = graph.meshes[mesh_name]
        rule = node.rule
        old = ShardingProjection.build(operand_shardings, result_shardings, rule, mesh)
        new, _, _ = propagated_projection(
            operand_shardings, result_shardings, rule, mesh, strategy, direction_along_factor, conservative,
            node.name, node.elementwise,
        )
        step = self.step
        self.step += 1
        ends = {OPERAND: operands, RESULT: results}
        on_func_result = node.name == "func.func"
        edges = None
        if self.propagation_edges:
            edges_per_node = self.func_result_edges if on_func_result else self.op_edges
            edges = edges_per_node.setdefault(graph.node_of(node.op), {})
        for kind, old_tensors, new_tensors, mappings in (
            (OPERAND, old.operands, new.operands, rule.operand_mappings),
            (RESULT, old.results, new.results, rule.result_mappings),
        ):
            for index, (old_tensor, new_tensor, mapping) in enumerate(zip(old_tensors, new_tensors, mappings)):
                new_axes = _new_axes(old, old_tensor, new_tensor, mapping, (kind, index), step, mesh)
                for axis, edge in new_axes.items():
                    if edges is not None:
                        _add_edge(edges.setdefault(axis, []), edge)
                    if self.sharding_origins:
                        self._record_origin(ends[kind][index], axis, ends[edge.source[0]][edge.source[1]])

    def record_applied_constraint(self, constraint: ir.Operation) -> None:
        """Records a step giving a sharding constraint's input its sharding (sdy-apply-sharding-constraints): every
        axis goes from the constraint's result to its operand."""
        graph = self.graph
        source, target = graph.slot(constraint.results[0]), graph.slot(constraint.operands[0])
        step = self.step
        self.step += 1
        edges = self.op_edges.setdefault(graph.node_of(constraint), {}) if self.propagation_edges else None
        for dim in TensorSharding.from_attr(constraint.attributes["sharding"]).dims:
            for axis in dim.axes:
                if edges is not None:
                    _add_edge(edges.setdefault(axis, []), PropagationEdge((RESULT, 0), (OPERAND, 0), step))
                origin = _origin_of(self.origins.get(self._canonical(source), {}), axis)
                if self.sharding_origins and origin is not None:  # for the input alone: groups are not synced
                    self.origins.setdefault(self._canonical(target), {}).setdefault(axis, origin)

    def _canonical(self, slot_id: int | None) -> int | None:
        return self._returned_slot.get(slot_id, slot_id)

    def _record_origin(self, target: int | None, axis: AxisRef, source: int | None) -> None:
        """`target` (and the other members of its sharding group, which it synced) took `axis` from `source`."""
        if target is None or source is None:
            return
        origin = _origin_of(self.origins.get(self._canonical(source), {}), axis)
        if origin is None:
            return
        group = self.graph.slots[target].group
        for slot_id in [target] + ([] if group is None else self.graph.groups[group]):
            self.origins.setdefault(self._canonical(slot_id), {}).setdefault(axis, origin)

    # ------------------------------------------------------------------
    # Writing
    # ------------------------------------------------------------------

    def write(self) -> None:
        """Puts the recorded info on the IR; after the graph was written back."""
        if self.sharding_origins:
            self._write_origins()
        if self.propagation_edges:
            self._write_edges()

    def _write_origins(self) -> None:
        graph = self.graph
        for node_id, name in self.origin_names.items():
            node = graph.nodes[node_id]
            if not node.erased:
                node.op.attributes[SHARDING_ORIGIN_NAME] = ir.StringAttr.get(name)
        func_args: dict[int, dict[int, ir.Attribute]] = {}
        func_results: dict[int, dict[int, ir.Attribute]] = {}
        per_result: dict[int, dict[int, ir.Attribute]] = {}
        for slot_id, origins in self.origins.items():
            slot = graph.slots[slot_id]
            owner = graph.nodes[slot.owner]
            if owner.erased:
                continue
            attr = _origins_attr(origins)
            if slot.kind is SlotKind.FUNC_ARG:
                value = owner.op.regions[0].blocks[0].arguments[slot.index]
                func_id = slot.owner
                func_args.setdefault(func_id, {})[slot.index] = attr
            else:
                value = owner.op.results[slot.index]
                func_id = self._enclosing_func(slot.owner)
                if owner.name in (CONSTRAINT, DATA_FLOW_EDGE):
                    owner.op.attributes[SHARDING_ORIGINS] = attr
                else:
                    per_result.setdefault(slot.owner, {})[slot.index] = attr
            returned_as = _first_return_of(value, graph.nodes[func_id].op)
            if returned_as is not None:
                func_results.setdefault(func_id, {})[returned_as] = attr
        for node_id, attrs in per_result.items():
            op = graph.nodes[node_id].op
            # Other results keep the origins the op already had.
            existing = op.attributes[SHARDING_ORIGINS] if SHARDING_ORIGINS in op.attributes else None
            entries = list(existing) if isinstance(existing, ir.ArrayAttr) else [ir.DictAttr.get({}) for _ in op.results]
            for index, attr in attrs.items():
                entries += [ir.DictAttr.get({})] * (index + 1 - len(entries))
                entries[index] = attr
            op.attributes[SHARDING_ORIGINS] = ir.ArrayAttr.get(entries)
        for func_id, attrs in func_args.items():
            func_attrs.set_arg_attrs(graph.nodes[func_id].op, attrs, SHARDING_ORIGINS)
        for func_id, attrs in func_results.items():
            func_attrs.set_result_attrs(graph.nodes[func_id].op, attrs, SHARDING_ORIGINS)
        _own_origins_read_self(graph.module)

    def _enclosing_func(self, node_id: int) -> int:
        nodes = self.graph.nodes
        while nodes[node_id].name != "func.func":
            node_id = nodes[node_id].parent
        return node_id

    def _write_edges(self) -> None:
        graph = self.graph
        for node_id, edges in self.op_edges.items():
            node = graph.nodes[node_id]
            if edges and not node.erased:
                node.op.attributes[PROPAGATION_EDGES] = _edges_attr(edges)
        for func_id, edges in self.func_result_edges.items():
            if edges:
                func_attrs.set_result_attr(graph.nodes[func_id].op, 0, _edges_attr(edges), PROPAGATION_EDGES)


def _new_axes(
    old: ShardingProjection,
    old_tensor: TensorFactorShardings,
    new_tensor: TensorFactorShardings,
    mapping,
    target: EdgeEnd,
    step: int,
    mesh: Mesh,
) -> dict[AxisRef, PropagationEdge]:
    """The axes a step gave one tensor, each with the edge it came by (Shardy's createSourceMap).

    Factors of one dimension whose new last axes merge count as the merged axis.
    The source is the first operand, else result, whose old axes along the
    factor extend the new ones; an axis keeps the first edge found for it.
    """
    found: dict[AxisRef, PropagationEdge] = {}
    for dim_factors in mapping:
        previous: AxisRef | None = None
        for factor in dim_factors:
            if factor not in old_tensor.factor_index_to_sharding:
                # Not projected: it follows a factor with overflow axes. (jaxlib crashes here.)
                continue
            old_axes = old_tensor.factor_index_to_sharding[factor].axis_refs
            new_axes = new_tensor.factor_index_to_sharding[factor].axis_refs
            if old_axes == new_axes:
                continue
            last = new_axes[-1]
            if previous is not None and axis_refs.can_merge(previous, last):
                found.pop(previous, None)
                last = axis_refs.merge(previous, last, mesh)
            previous = new_axes[-1]
            introduced = list(new_axes[:-1]) + [last]
            source = _source_of(new_axes, factor, old)
            if source is None:
                continue
            edge = PropagationEdge(source, target, step)
            if old_axes and old_axes[-1] != introduced[len(old_axes) - 1]:
                found.setdefault(introduced[len(old_axes) - 1], edge)
            for axis in introduced[len(old_axes):]:
                found.setdefault(axis, edge)
    return found


def _add_edge(axis_edges: list[PropagationEdge], edge: PropagationEdge) -> None:
    """Adds an axis's edge unless an earlier step took the axis along the same edge (as function results
    all record on result 0, their later steps often do)."""
    if not any(e.source == edge.source and e.target == edge.target for e in axis_edges):
        axis_edges.append(edge)


def _source_of(new_axes: list[AxisRef], factor: int, old: ShardingProjection) -> EdgeEnd | None:
    for kind, tensors in ((OPERAND, old.operands), (RESULT, old.results)):
        for index, tensor in enumerate(tensors):
            sharding = tensor.factor_index_to_sharding.get(factor)
            if sharding is not None and (
                axis_refs.axis_list_prefix_status(new_axes, sharding.axis_refs) is not axis_refs.PrefixStatus.NOT_A_PREFIX
            ):
                return kind, index
    return None


def _origin_of(origins: dict[AxisRef, str], axis: AxisRef) -> str | None:
    """The origin of `axis` in a source's origins, or of the first axis containing it or contained in it
    (a reshape splits and merges axes). When several such axes have different origins, jaxlib takes the
    first in hash order, which changes from run to run; pysdy the first recorded."""
    origin = origins.get(axis)
    if origin is not None:
        return origin
    for other, origin in origins.items():
        if axis_refs.contains(other, axis) or axis_refs.contains(axis, other):
            return origin
    return None


def _origins_attr(origins: dict[AxisRef, str]) -> ir.Attribute:
    """`{axis = "origin"}`."""
    return ir.DictAttr.get({str(axis).replace('"', ""): ir.StringAttr.get(origin) for axis, origin in origins.items()})


def _own_origins_read_self(module: ir.Operation) -> None:
    """Where a value's origins name the value itself (a constraint, a function input or output, a manual
    computation's edge), they read `self`; as Shardy, also in origins the module had before the pass."""
    for op in nested_ops(module, name=CONSTRAINT):
        name = op.attributes[SHARDING_ORIGIN_NAME] if SHARDING_ORIGIN_NAME in op.attributes else None
        _name_self(op, None if name is None else ir.StringAttr(name).value)
    for op in module.regions[0].blocks[0].operations:
        func = op.operation
        if func.name != "func.func":
            continue
        arguments = {i: func_attrs.get_arg_attr(func, i, SHARDING_ORIGINS) for i in range(func_attrs.num_arguments(func))}
        func_attrs.set_arg_attrs(
            func, {i: _with_self(o, f"input: {i}") for i, o in arguments.items() if o is not None}, SHARDING_ORIGINS
        )
        results = {i: func_attrs.get_result_attr(func, i, SHARDING_ORIGINS) for i in range(func_attrs.num_results(func))}
        func_attrs.set_result_attrs(
            func, {i: _with_self(o, f"output: {i}") for i, o in results.items() if o is not None}, SHARDING_ORIGINS
        )
    for op in nested_ops(module, name=MANUAL_COMPUTATION):
        name = ir.StringAttr(op.attributes[SHARDING_ORIGIN_NAME]).value
        for argument in op.regions[0].blocks[0].arguments:
            _name_self(edge_user(argument), f"{name}_input: {argument.arg_number}")
        for result in op.results:
            _name_self(edge_user(result), f"{name}_output: {result.result_number}")


def _name_self(op: ir.Operation | None, own_origin: str | None) -> None:
    if op is not None and SHARDING_ORIGINS in op.attributes:
        op.attributes[SHARDING_ORIGINS] = _with_self(op.attributes[SHARDING_ORIGINS], own_origin)


def _with_self(origins: ir.Attribute, own_origin: str | None) -> ir.Attribute:
    if not isinstance(origins, ir.DictAttr):
        return origins
    entries = {named.name: named.attr for named in origins}
    for axis, origin in entries.items():
        if isinstance(origin, ir.StringAttr) and origin.value == own_origin:
            entries[axis] = ir.StringAttr.get("self")
    return ir.DictAttr.get(entries)


def _edges_attr(edges: AxisEdges) -> ir.Attribute:
    """`#sdy.propagation_edges`: per step, one entry per axis and source with the targets it reached.

    Entries are ordered by axis (Shardy's axis order), then by source. When
    one step brings an axis from several sources (to different targets),
    jaxlib orders those entries by attribute address, differently from run
    to run; pysdy orders them as it orders targets.
    """
    per_step: dict[int, dict[tuple[AxisRef, EdgeEnd], set[EdgeEnd]]] = {}
    for axis, axis_edges in edges.items():
        for edge in axis_edges:
            per_step.setdefault(edge.step, {}).setdefault((axis, edge.source), set()).add(edge.target)
    steps = []
    for step in sorted(per_step):
        entries = sorted(per_step[step].items(), key=lambda item: (axis_refs.sort_key(item[0][0]), item[0][1]))
        details = ", ".join(
            f"{{{axis} = {_end(source)} -> [{', '.join(_end(t) for t in sorted(targets))}]}}"
            for (axis, source), targets in entries
        )
        steps.append(f"{{step-{step} = [{details}]}}")
    return ir.Attribute.parse(f"#sdy.propagation_edges<[{', '.join(steps)}]>")


def _first_free_step(module: ir.Operation) -> int:
    """The step after the last one any op of the module already records (an earlier pass's): as Shardy,
    a pass numbers its steps on from there."""
    last = -1
    for op in nested_ops(module):
        if PROPAGATION_EDGES in op.attributes:
            last = max([last, *map(int, _STEP_INDEX.findall(str(op.attributes[PROPAGATION_EDGES])))])
    return last + 1


def _end(end: EdgeEnd) -> str:
    return f"{_KIND_NAMES[end[0]]}-{end[1]}"


def _has_edges(op: ir.Operation) -> bool:
    """Whether a manual computation has its data-flow edges, which its origins name. One without any gives no
    origins on the lines that allow it; jaxlib crashes on one with some edges missing (on older lines, with any
    missing), and pysdy reports it."""
    owners = list(op.regions[0].blocks[0].arguments) + list(op.results)
    missing = [owner for owner in owners if edge_user(owner) is None]
    if not missing:
        return True
    if len(missing) == len(owners) and versions.installed().origins_skip_manual_computations_without_edges:
        return False
    op.location.emit_error(
        "debug-sharding-origins needs an sdy.data_flow_edge on every body argument and result of a manual "
        "computation (sdy-add-data-flow-edges puts them there)"
    )
    raise PassFailure()


def _edge_result(owner: ir.Value) -> ir.Value | None:
    edge = edge_user(owner)
    return None if edge is None else edge.results[0]


def _terminator(func: ir.Operation) -> ir.Operation:
    return list(func.regions[0].blocks[0].operations)[-1].operation


def _first_return_of(value: ir.Value, func: ir.Operation) -> int | None:
    """The result of `func` that the first use of `value` in its terminator returns, if any (in use-list order)."""
    terminator = _terminator(func)
    for use in value.uses:
        if use.owner.operation == terminator:
            return use.operand_number
    return None
