"""The shardings a user wrote, found by the origin names Shardy gives them, and named as a JAX user knows them.

Origins name function inputs and outputs (`input: 0`, `output: 0`: JAX's
`in_shardings` and `out_shardings`, of `main`, the one function JAX annotates), sharding constraints (`constraint_2`:
`with_sharding_constraint`) and manual computation edges (`mc_0_input: 1`,
`mc_0_output: 0`: a `shard_map`'s `in_specs` and `out_specs`); `self` is the
value's own sharding.
"""

from __future__ import annotations

import re

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorShardingPerValue
from pysdy.explanation.locations import leading_name
from pysdy.explanation.model import Annotation
from pysdy.explanation.recorded_module import FuncResult, RecordedModule, ValueKey
from pysdy.passes.common import func_attrs
from pysdy.passes.common.data_flow import MANUAL_COMPUTATION

_FUNCTION_EDGE = re.compile(r"^(input|output): (\d+)$")
_MANUAL_EDGE = re.compile(r"^(mc_\d+)_(input|output): (\d+)$")


def annotation_of(recorded: RecordedModule, origin: str, value: ValueKey) -> Annotation | None:
    """The annotation `origin` names, `value` being the value whose origins name it (for `self`)."""
    if origin == "self":
        return _own_annotation(recorded, value)
    match = _FUNCTION_EDGE.match(origin)
    if match is not None:
        index = int(match.group(2))
        main = recorded.main
        if match.group(1) == "input":
            arguments = main.regions[0].blocks[0].arguments
            return _argument(recorded, arguments[index], origin) if index < len(arguments) else None
        return _result(recorded, FuncResult(ir.StringAttr(main.attributes["sym_name"]).value, index), origin)
    match = _MANUAL_EDGE.match(origin)
    if match is not None:
        return _manual_edge(recorded, origin, match.group(1), match.group(2), int(match.group(3)))
    op = recorded.ops_by_origin_name.get(origin)
    if op is not None:
        return _constraint(recorded, op, origin)
    return None


def _own_annotation(recorded: RecordedModule, value: ValueKey) -> Annotation | None:
    if isinstance(value, FuncResult):
        return _result(recorded, value, f"output: {value.index}")
    if isinstance(value, ir.BlockArgument):
        owner = value.owner.owner.operation
        if owner.name == "func.func":
            return _argument(recorded, value, f"input: {value.arg_number}")
        if owner.name == MANUAL_COMPUTATION:
            return _manual_edge(recorded, None, None, "input", value.arg_number, owner)
        return None
    op = value.owner
    if op.name == MANUAL_COMPUTATION:
        return _manual_edge(recorded, None, None, "output", value.result_number, op)
    if "sdy.sharding_origin_name" in op.attributes:
        return _constraint(recorded, op, ir.StringAttr(op.attributes["sdy.sharding_origin_name"]).value)
    return None


def _argument(recorded: RecordedModule, argument: ir.BlockArgument, origin: str) -> Annotation:
    name = recorded.name(argument)
    parameter = leading_name(argument.location)
    label = name if parameter is None else f"{name} ({parameter})"
    written = recorded.propagated.written.get(("input", argument.arg_number)) if _in_main(recorded, argument) else None
    sharding = written or _text(recorded.sharding(argument))
    return Annotation("argument", origin, label, sharding, recorded.location(argument))


def _in_main(recorded: RecordedModule, argument: ir.BlockArgument) -> bool:
    return argument.owner.owner.operation == recorded.main


def _result(recorded: RecordedModule, result: FuncResult, origin: str) -> Annotation:
    written = recorded.propagated.written.get(("output", result.index)) if result.function == "main" else None
    sharding = written or _text(recorded.sharding(result))
    info = func_attrs.get_result_attr(recorded.functions[result.function], result.index, "jax.result_info")
    label = recorded.name(result) if info is None else f"{recorded.name(result)} ({ir.StringAttr(info).value})"
    return Annotation("result", origin, label, sharding, recorded.location(result))


def _constraint(recorded: RecordedModule, op: ir.Operation, origin: str) -> Annotation:
    sharding = recorded.constraint_shardings.get(origin)
    if sharding is None and "sharding" in op.attributes:
        sharding = str(op.attributes["sharding"])
    return Annotation("sharding constraint", origin, recorded.name(op.results[0]), sharding or "", recorded.op_location(op))


def _manual_edge(
    recorded: RecordedModule, origin: str | None, name: str | None, side: str, index: int, op: ir.Operation | None = None
) -> Annotation | None:
    op = recorded.ops_by_origin_name.get(name) if op is None else op
    if op is None:
        return None
    if origin is None:
        own = ir.StringAttr(op.attributes["sdy.sharding_origin_name"]).value if "sdy.sharding_origin_name" in op.attributes else "mc"
        origin = f"{own}_{side}: {index}"
    attribute = "in_shardings" if side == "input" else "out_shardings"
    shardings = TensorShardingPerValue.from_attr(op.attributes[attribute]).shardings
    value = op.operands[index] if side == "input" else op.results[index]
    sharding = shardings[index].to_attr() if index < len(shardings) else None
    return Annotation(
        f"shard_map {side}", origin, recorded.name(value), "" if sharding is None else str(sharding), recorded.op_location(op)
    )


def _text(sharding) -> str:
    return "" if sharding is None else str(sharding.to_attr())
