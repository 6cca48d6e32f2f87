"""A module after the recording run, read back: each value's name, sharding and origins, and the propagation steps.

Values are keyed by their `ir.Value`, except a function's results, which are
no values: `FuncResult(function name, index)`. A step (`Event`) says that at
step N an axis went through an op from one value to another; the steps come
from the `sdy.propagation_edges` the run left on ops and on function results
(Shardy keeps all of a function's result steps on its result 0).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Union

from jaxlib.mlir import ir

from pysdy.dialects.sdy import OpShardingRule, TensorSharding
from pysdy.explanation.debug_run import Propagated, function_prefix, input_name
from pysdy.explanation.locations import source_text
from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.propagation.debug_info import PROPAGATION_EDGES, SHARDING_ORIGIN_NAME, SHARDING_ORIGINS


@dataclasses.dataclass(frozen=True)
class FuncResult:
    function: str
    index: int


ValueKey = Union[ir.Value, FuncResult]

# Where export's sinking puts the origins of a data-flow edge owner's results and block arguments.
_RESULT_ORIGINS = "sdy.result_sharding_origins"
_BLOCK_ARG_ORIGINS = "sdy.block_arg_sharding_origins"
# Ops whose result i is their operand i's tensor (data-flow edges propagation saw through).
_PASS_THROUGH_OPS = frozenset(("stablehlo.optimization_barrier",))
# Ops whose result i is what their regions return at i (a while's also its operand and body argument i).
_REGION_OPS = frozenset(("stablehlo.while", "stablehlo.case", "stablehlo.if", "sdy.manual_computation", "sdy.named_computation"))
# Ops export inserts that pass a tensor on, resharded: their result is their operand's tensor.
_SAME_TENSOR_OPS = frozenset(
    ("sdy.reshard", "sdy.all_reduce", "sdy.all_gather", "sdy.all_slice", "sdy.all_to_all", "sdy.collective_permute",
     "sdy.reduce_scatter")
)  # fmt: skip
_EDGE_TOKEN = re.compile(r'step-(\d+) = |\{("[^"]+"(?::\(\d+\)\d+)?) = (operand|result)-(\d+) -> \[([^\]]*)\]\}')
_END = re.compile(r"(operand|result)-(\d+)")


@dataclasses.dataclass(frozen=True)
class Event:
    """At step `step`, `axis` went through `op` from `source` to `target` (`source_end`/`target_end` as Shardy
    names them: `operand-0`, `result-1`)."""

    step: int
    axis: str
    op: ir.Operation
    source: ValueKey | None
    target: ValueKey
    source_end: str
    target_end: str


def axis_name(axis: str) -> str:
    """`"x":(1)2` -> `x`: the mesh axis an axis or sub-axis as printed belongs to."""
    return axis.split('"')[1] if axis.startswith('"') else axis.split(":")[0]


def _parse_edges(text: str) -> list[tuple[int, str, str, list[str]]]:
    """(step, axis, source end, target ends) of a printed `#sdy.propagation_edges`."""
    found, step = [], -1
    for match in _EDGE_TOKEN.finditer(text):
        if match.group(1) is not None:
            step = int(match.group(1))
        else:
            targets = [f"{kind}-{index}" for kind, index in _END.findall(match.group(5))]
            found.append((step, match.group(2), f"{match.group(3)}-{match.group(4)}", targets))
    return found


def _origins_of(attribute: ir.Attribute | None) -> dict[str, str]:
    """`{x = "input: 0", "y":(1)2 = "self"}` as a dict from axis name as sdy prints it in shardings to origin."""
    if not isinstance(attribute, ir.DictAttr):
        return {}
    return {_quoted_axis(named.name): ir.StringAttr(named.attr).value for named in attribute}


def _quoted_axis(key: str) -> str:
    """An origins key (`x`, `x:(1)2`) spelled as shardings print the axis (`"x"`, `"x":(1)2`)."""
    name, _, sub = key.partition(":")
    return f'"{name}"' + (f":{sub}" if sub else "")


class RecordedModule:
    """The recording run's module, indexed once."""

    def __init__(self, module: ir.Operation, propagated: Propagated):
        self.module = module
        self.propagated = propagated
        self.constraint_shardings = propagated.constraint_shardings
        self.functions: dict[str, ir.Operation] = {}
        for op in module.regions[0].blocks[0].operations:
            if op.operation.name == "func.func":
                self.functions[ir.StringAttr(op.operation.attributes["sym_name"]).value] = op.operation
        self.main = self.functions.get("main") or next(iter(self.functions.values()))
        self.events: dict[ValueKey, list[Event]] = {}
        self.origins: dict[ValueKey, dict[str, str]] = {}
        self.names: dict[ValueKey, str] = {}
        self.ops_by_origin_name: dict[str, ir.Operation] = {}
        self.callers: dict[str, list[ir.Operation]] = {}
        self.values: list[ValueKey] = []
        self._taken: dict[str, int] = {}
        for name, func in self.functions.items():
            self._read_function(name, func)

    # ------------------------------------------------------------------

    def _read_function(self, name: str, func: ir.Operation) -> None:
        prefix = function_prefix(func)
        block = func.regions[0].blocks[0]
        for argument in block.arguments:
            self.names[argument] = f"{prefix}%arg{argument.arg_number}"
            self.origins[argument] = _origins_of(func_attrs.get_arg_attr(func, argument.arg_number, SHARDING_ORIGINS))
            self.values.append(argument)  # a function's arguments keep their sharding through export
        state = ir.AsmState(func)
        for op in nested_ops(func):
            if op.name == "func.func":
                continue
            if op.name == "func.call":
                self.callers.setdefault(ir.FlatSymbolRefAttr(op.attributes["callee"]).value, []).append(op)
            if SHARDING_ORIGIN_NAME in op.attributes:
                self.ops_by_origin_name[ir.StringAttr(op.attributes[SHARDING_ORIGIN_NAME]).value] = op
            for region in op.regions:
                for inner in region.blocks:
                    for argument in inner.arguments:
                        self.names[argument] = prefix + argument.get_name(state)
            self._read_results(op, prefix, state)
            if PROPAGATION_EDGES in op.attributes:
                self._read_op_edges(op)
        returned = list(block.operations)[-1].operation
        for index in range(func_attrs.num_results(func)):
            key = FuncResult(name, index)
            self.names[key] = f"{prefix}result {index}"
            self.origins[key] = _origins_of(func_attrs.get_result_attr(func, index, SHARDING_ORIGINS))
            self.values.append(key)
        edges = func_attrs.get_result_attr(func, 0, PROPAGATION_EDGES)
        if edges is not None:
            for step, axis, source, targets in _parse_edges(str(edges)):
                for target in targets:
                    self._add_event(Event(
                        step, axis, returned, returned.operands[int(source.split("-")[1])],
                        FuncResult(name, int(target.split("-")[1])), source, target,
                    ))  # fmt: skip

    def _read_results(self, op: ir.Operation, prefix: str, state: ir.AsmState) -> None:
        origins = next((op.attributes[n] for n in (SHARDING_ORIGINS, _RESULT_ORIGINS) if n in op.attributes), None)
        if _BLOCK_ARG_ORIGINS in op.attributes and op.regions:
            arguments = op.regions[0].blocks[0].arguments
            for argument, entry in zip(arguments, op.attributes[_BLOCK_ARG_ORIGINS]):
                self.origins[argument] = _origins_of(entry)
        for result in op.results:
            named = input_name(op, result.result_number)
            if named is None:  # made by a pass, with a location of its own: `%13<reshard>` in the output's numbering
                name = f"{prefix}{result.get_name(state)}<{op.name.split('.', 1)[-1]}>"
            else:
                name, own = named
                if not own:  # made by a pass from the op that had the name: `%17/all_reduce`
                    name = f"{name}/{op.name.split('.', 1)[-1]}"
            self.names[result] = self._unique(name)
            if isinstance(origins, ir.ArrayAttr):
                if result.result_number < len(origins):
                    self.origins[result] = _origins_of(origins[result.result_number])
            elif origins is not None:
                self.origins[result] = _origins_of(origins)
            if isinstance(result.type, ir.RankedTensorType) and result in self.propagated.shardings:
                self.values.append(result)

    def _unique(self, name: str) -> str:
        """`name`, or `name.2`, `name.3`, ... when taken (a constant the import split in copies)."""
        count = self._taken.get(name, 0) + 1
        self._taken[name] = count
        return name if count == 1 else f"{name}.{count}"

    def _read_op_edges(self, op: ir.Operation) -> None:
        for step, axis, source, targets in _parse_edges(str(op.attributes[PROPAGATION_EDGES])):
            source_value = self._end_value(op, source)
            for target in targets:
                target_value = self._end_value(op, target)
                if target_value is not None:
                    self._add_event(Event(step, axis, op, source_value, target_value, source, target))

    @staticmethod
    def _end_value(op: ir.Operation, end: str) -> ir.Value | None:
        kind, index = end.split("-")
        values = op.operands if kind == "operand" else op.results
        return values[int(index)] if int(index) < len(values) else None

    def _add_event(self, event: Event) -> None:
        self.events.setdefault(event.target, []).append(event)

    # ------------------------------------------------------------------

    def name(self, key: ValueKey) -> str:
        return self.names.get(key, "?")

    def sharding(self, key: ValueKey) -> TensorSharding | None:
        """The value's sharding as propagation left it (export's reshards come after); a value export made, as it
        has it."""
        if isinstance(key, FuncResult):
            return func_attrs.result_shardings(self.functions[key.function])[key.index]
        if key in self.propagated.shardings:
            return self.propagated.shardings[key]
        return get_sharding(key)

    def type(self, key: ValueKey) -> ir.Type:
        if isinstance(key, FuncResult):
            return func_attrs.result_types(self.functions[key.function])[key.index]
        return key.type

    def location(self, key: ValueKey) -> str | None:
        """The source position of the op defining the value (a function's for its arguments and results)."""
        if isinstance(key, FuncResult):
            return self.op_location(list(self.functions[key.function].regions[0].blocks[0].operations)[-1].operation)
        if isinstance(key, ir.BlockArgument):
            return source_text(key.location)
        return self.op_location(key.owner)

    def op_location(self, op: ir.Operation) -> str | None:
        """`op`'s source position; for an op without one in a function called from one place, the call's."""
        found = source_text(op.location)
        if found is not None:
            return found
        parent = op.parent
        while parent is not None and parent.name != "func.func":
            parent = parent.parent
        if parent is None:
            return None
        callers = self.callers.get(ir.StringAttr(parent.attributes["sym_name"]).value, [])
        return self.op_location(callers[0]) if len(callers) == 1 else None

    def rule(self, op: ir.Operation) -> OpShardingRule | None:
        return OpShardingRule.from_attr(op.attributes["sdy.sharding_rule"]) if "sdy.sharding_rule" in op.attributes else None

    def links(self, key: ValueKey) -> list[ValueKey]:
        """Values that are the same tensor as `key` across a call (a call's operand and its callee's argument, a
        callee's returned value, its function result and its calls' result) or a reshard or collective export
        inserted (its result and operand)."""
        if isinstance(key, FuncResult):
            returned = list(self.functions[key.function].regions[0].blocks[0].operations)[-1].operation
            calls = self.callers.get(key.function, [])
            return [returned.operands[key.index]] + [call.results[key.index] for call in calls]
        linked: list[ValueKey] = []
        if isinstance(key, ir.BlockArgument):
            owner = key.owner.owner.operation
            if owner.name == "func.func":
                callee = ir.StringAttr(owner.attributes["sym_name"]).value
                linked += [call.operands[key.arg_number] for call in self.callers.get(callee, [])]
            elif owner.name in ("stablehlo.while", "sdy.manual_computation"):
                linked.append(owner.operands[key.arg_number])
                if owner.name == "stablehlo.while":
                    linked += [owner.results[key.arg_number], _terminator(owner.regions[1]).operands[key.arg_number]]
        elif key.owner.name in _REGION_OPS:
            number = key.result_number
            body = list(key.owner.regions)[1:] if key.owner.name == "stablehlo.while" else list(key.owner.regions)
            linked += [_terminator(region).operands[number] for region in body]
            if key.owner.name == "stablehlo.while":
                linked.append(key.owner.operands[number])
        elif key.owner.name == "func.call":
            callee = ir.FlatSymbolRefAttr(key.owner.attributes["callee"]).value
            if callee in self.functions:
                linked.append(FuncResult(callee, key.result_number))
        elif key.owner.name in _SAME_TENSOR_OPS:
            # Its operand's axes come from the operand; the axes it adds from the op it reshards for.
            linked.append(key.owner.operands[0])
            for use in key.uses:
                user = use.owner.operation if hasattr(use.owner, "operation") else use.owner
                linked += [v for v in list(user.results) + list(user.operands) if v != key]
        elif key.owner.name in _PASS_THROUGH_OPS:
            linked.append(key.owner.operands[key.result_number])
        for use in key.uses:
            user = use.owner.operation if hasattr(use.owner, "operation") else use.owner
            if user.name == "func.call":
                callee = self.functions.get(ir.FlatSymbolRefAttr(user.attributes["callee"]).value)
                if callee is not None:
                    linked.append(callee.regions[0].blocks[0].arguments[use.operand_number])
            elif user.name == "func.return" and user.parent.name == "func.func":
                linked.append(FuncResult(ir.StringAttr(user.parent.attributes["sym_name"]).value, use.operand_number))
            elif user.parent is not None and user.parent.name in _REGION_OPS and user == _terminator_of_block(user):
                linked.append(user.parent.results[use.operand_number])
        return linked


def _terminator(region: ir.Region) -> ir.Operation:
    return list(region.blocks[0].operations)[-1].operation


def _terminator_of_block(op: ir.Operation) -> ir.Operation | None:
    """The last op of the block `op` is in."""
    return list(op.block.operations)[-1].operation if op.block is not None else None
