"""Where a `sdy.func_data_flow_edge` gets its sources: across function calls when call graphs are kept.

With `dedup-functions-fully`, calls stay calls and `sdy-add-func-data-flow-edges`
puts an edge on every argument of a called function and on every call result.
An argument's edge is fed by that operand at every call site; a call result's
edge by the callee's returned value.
"""

from __future__ import annotations

from jaxlib.mlir import ir

FUNC_EDGE_OP = "sdy.func_data_flow_edge"


class FuncEdges:
    """The function-call data-flow edges of one module."""

    def __init__(self, module: ir.Operation, calls: list[ir.Operation]):
        """`calls` are all the module's func.call ops."""
        self._calls: dict[str, list[ir.Operation]] = {}
        self._funcs: dict[str, ir.Operation] = {}
        for op in module.regions[0].blocks[0].operations:
            op = op.operation
            if op.name == "func.func":
                self._funcs[ir.StringAttr(op.attributes["sym_name"]).value] = op
        for call in calls:
            self._calls.setdefault(_callee(call), []).append(call)

    def sources(self, edge: ir.Operation) -> list[ir.Value]:
        value = edge.operands[0]
        if isinstance(value, ir.BlockArgument):
            func = value.owner.owner.operation
            calls = self._calls.get(ir.StringAttr(func.attributes["sym_name"]).value, [])
            return [call.operands[value.arg_number] for call in calls]
        call = value.owner.operation
        callee = self._funcs.get(_callee(call))
        if callee is None:
            return []
        operations = callee.regions[0].blocks[0].operations
        terminator = operations[len(operations) - 1].operation
        return [terminator.operands[value.result_number]]

    def edges_fed_by(self, use) -> list[ir.Operation]:
        """The edges an operand use is a source of: a call operand feeds the callee's argument
        edge, a returned value the edges of that result at every call."""
        user = use.owner.operation
        number = use.operand_number
        if user.name == "func.call":
            callee = self._funcs.get(_callee(user))
            if callee is None:
                return []
            edge = _edge_on(callee.regions[0].blocks[0].arguments[number])
            return [edge] if edge is not None else []
        if user.name == "func.return":
            func = user.parent
            calls = self._calls.get(ir.StringAttr(func.attributes["sym_name"]).value, [])
            found = (_edge_on(call.results[number]) for call in calls)
            return [edge for edge in found if edge is not None]
        return []


def _callee(call: ir.Operation) -> str:
    return ir.FlatSymbolRefAttr(call.attributes["callee"]).value


def _edge_on(value: ir.Value) -> ir.Operation | None:
    for use in value.uses:
        if use.owner.operation.name == FUNC_EDGE_OP:
            return use.owner.operation
    return None
