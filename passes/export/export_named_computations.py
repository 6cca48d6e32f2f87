"""`sdy-export-named-computations`: outline every `sdy.named_computation` into a private function and call it."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorShardingPerValue
from pysdy.passes.common import func_attrs
from pysdy.passes.common.data_flow import EDGE_OP, NAMED_COMPUTATION, replace_edge_with_input
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.export.sink_data_flow_edges import owner_shardings
from pysdy.passes.registry import MODULE, Pass, register_pass

ORIGINAL_FUNC_NAME = "sdy.original_func_name"
INHERENT_ATTRS = ("name", "in_shardings", "out_shardings")


class SymbolNames:
    """Unique symbol names the way MLIR's SymbolTable renames clashes: `name_N`, one counter for all names."""

    def __init__(self, module: ir.Operation):
        self.taken = {
            ir.StringAttr(op.attributes["sym_name"]).value
            for op in module.regions[0].blocks[0].operations
            if "sym_name" in op.operation.attributes
        }
        self.counter = 0

    def claim(self, name: str) -> str:
        if name in self.taken:
            while True:
                candidate = f"{name}_{self.counter}"
                self.counter += 1
                if candidate not in self.taken:
                    name = candidate
                    break
        self.taken.add(name)
        return name


def remove_data_flow_edges(values: list[ir.Value]) -> None:
    """Replaces the `sdy.data_flow_edge` a value feeds (if it is its first user) by the value."""
    for value in values:
        uses = list(value.uses)
        if uses and uses[0].owner.operation.name == EDGE_OP:
            replace_edge_with_input(uses[0].owner.operation)


def _outline(named: ir.Operation, module: ir.Operation, names: SymbolNames) -> ir.Operation:
    name = ir.StringAttr(named.attributes["name"]).value
    body = named.regions[0].blocks[0]
    function_type = ir.FunctionType.get([a.type for a in body.arguments], [r.type for r in named.results])
    with ir.InsertionPoint(module.regions[0].blocks[0]), named.location:
        func = ir.Operation.create(
            "func.func",
            attributes={
                "sym_name": ir.StringAttr.get(names.claim(name)),
                "function_type": ir.TypeAttr.get(function_type),
                "sym_visibility": ir.StringAttr.get("private"),
                ORIGINAL_FUNC_NAME: named.attributes["name"],
            },
            regions=1,
        )
    body.append_to(func.regions[0])
    terminator = list(body.operations)[-1].operation
    with ir.InsertionPoint(terminator), terminator.location:
        ir.Operation.create("func.return", operands=list(terminator.operands))
    terminator.erase()
    remove_data_flow_edges(list(body.arguments))
    if "in_shardings" in named.attributes:
        shardings = TensorShardingPerValue.from_attr(named.attributes["in_shardings"]).shardings
        func_attrs.set_arg_attrs(func, {index: sharding.to_attr() for index, sharding in enumerate(shardings)})
    return func


@register_pass
@dataclasses.dataclass(frozen=True)
class ExportNamedComputationsPass(Pass):
    argument = "sdy-export-named-computations"
    summary = "Outline calls from `NamedComputationOp`."
    anchor = MODULE

    def run(self, op: ir.Operation) -> None:
        names = SymbolNames(op)
        call_results: list[ir.Value] = []
        for named in nested_ops(op, name=NAMED_COMPUTATION):
            shardings = owner_shardings(list(named.regions[0].blocks[0].arguments))
            if shardings is not None:
                named.attributes["in_shardings"] = TensorShardingPerValue(tuple(shardings)).to_attr()
            shardings = owner_shardings(list(named.results))
            if shardings is not None:
                named.attributes["out_shardings"] = TensorShardingPerValue(tuple(shardings)).to_attr()
            func = _outline(named, op, names)
            with ir.InsertionPoint(named), named.location:
                call = ir.Operation.create(
                    "func.call",
                    results=[r.type for r in named.results],
                    operands=list(named.operands),
                    attributes={"callee": ir.FlatSymbolRefAttr.get(ir.StringAttr(func.attributes["sym_name"]).value)},
                )
            for attr_name in named.attributes:
                if attr_name not in INHERENT_ATTRS:
                    call.attributes[attr_name] = named.attributes[attr_name]
            if "out_shardings" in named.attributes:
                call.attributes["sdy.sharding"] = named.attributes["out_shardings"]
            for result, new_result in zip(named.results, call.results):
                result.replace_all_uses_with(new_result)
            call_results.extend(call.results)
            named.erase()
        remove_data_flow_edges(call_results)
