"""`sdy-import-func-calls`: replace each `func.call` with an `sdy.named_computation` holding the callee's body."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.passes.common import data_flow, func_attrs
from pysdy.passes.common.func_bodies import move_func_body
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import SHARDING
from pysdy.passes.diagnostics import emit_warning
from pysdy.passes.import_.add_data_flow_edges import add_data_flow_edges
from pysdy.passes.import_.call_graph import callee_name, functions, has_body, original_func_name, walk_calls
from pysdy.passes.import_.propagate_sharding_from_func_to_call import func_shardings
from pysdy.passes.import_.symbols import SymbolTable
from pysdy.passes.registry import Pass, option, register_pass

CALL_INHERENT_ATTRS = frozenset({"callee", "arg_attrs", "res_attrs", "no_inline"})


def _discardable_attrs(call: ir.Operation) -> dict[str, ir.Attribute]:
    """The call's attributes a named computation should carry: all but its own and its result shardings."""
    return {n: call.attributes[n] for n in call.attributes if n not in CALL_INHERENT_ATTRS and n != SHARDING}


def _set_attrs(named: ir.Operation, name: str, in_shardings, out_shardings, extra: dict[str, ir.Attribute]) -> None:
    named.attributes["name"] = ir.StringAttr.get(name)
    if in_shardings is not None:
        named.attributes["in_shardings"] = in_shardings.to_attr()
    if out_shardings is not None:
        named.attributes["out_shardings"] = out_shardings
    for key, value in extra.items():
        named.attributes[key] = value


_cloned_body_warned = False


def _warn_once_about_cloned_body(call: ir.Operation, name: str) -> None:
    """Warns that a function called again gets its body cloned: once per process, as Shardy's C++ does (a static
    once-flag), so `-split-input-file` warns for the first part that clones a body only."""
    global _cloned_body_warned
    if not _cloned_body_warned:
        _cloned_body_warned = True
        message = f"function @{name} has multiple call ops, we need to clone the function body for each call"
        emit_warning(call.location, message)


@register_pass
@dataclasses.dataclass(frozen=True)
class ImportFuncCallsPass(Pass):
    argument = "sdy-import-func-calls"
    summary = "Inline calls into `NamedComputationOp`."
    leaves_invalid_ir = True  # e.g. a data-flow edge whose input a manual computation defines

    add_data_flow_edges_on_named_computations: bool = option(
        True, "Whether to add data flow edges on named computations."
    )

    def run(self, op: ir.Operation) -> None:
        symbols = SymbolTable(op)
        # One walk per function finds its calls and the named computations already there.
        found = {func: _calls_and_named_computations(func) for func in functions(op) if has_body(func)}
        moved: dict[str, ir.Operation] = {}
        for call in walk_calls(op, symbols, lambda func: found[func][0]):
            name = callee_name(call)
            func = symbols.lookup(name)
            operand_types = [operand.type for operand in call.operands]
            in_shardings = func_shardings(func_attrs.arg_shardings(func), operand_types, symbols)
            out_shardings = call.attributes[SHARDING] if SHARDING in call.attributes else None
            if name in moved:
                _warn_once_about_cloned_body(call, name)
                named = moved[name].clone(ir.InsertionPoint(call))
                for attribute in list(named.attributes):
                    del named.attributes[attribute]
                for index, operand in enumerate(call.operands):
                    named.operands[index] = operand
            else:
                named = sdy.NamedComputationOp(
                    [r.type for r in call.results],
                    original_func_name(func),
                    list(call.operands),
                    loc=call.location,
                    ip=ir.InsertionPoint(call),
                ).operation
                move_func_body(func, named)
                moved[name] = named
            _set_attrs(named, original_func_name(func), in_shardings, out_shardings, _discardable_attrs(call))
            for old, new in zip(call.results, named.results):
                old.replace_all_uses_with(new)
            call.erase()
        for name in moved:
            symbols.erase(symbols.lookup(name))
        if self.add_data_flow_edges_on_named_computations:
            if moved:
                named_computations = nested_ops(op, name=data_flow.NAMED_COMPUTATION)
            else:
                named_computations = [named for _, in_func in found.values() for named in in_func]
            for named in named_computations:
                add_data_flow_edges(data_flow.block_arg_edge_owners(named))
                add_data_flow_edges(data_flow.result_edge_owners(named))


def _calls_and_named_computations(func: ir.Operation) -> tuple[list[ir.Operation], list[ir.Operation]]:
    """The calls and the named computations in `func`, each in walk (post-)order."""
    calls: list[ir.Operation] = []
    named_computations: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        name = op.name
        if name == "func.call":
            calls.append(op)
        elif name == data_flow.NAMED_COMPUTATION:
            named_computations.append(op)
        return ir.WalkResult.ADVANCE

    func.walk(visit)
    return calls, named_computations
