"""`pysdy-inline-calls`: each plain `func.call` replaced by a copy of its callee's body, as XLA's CPU compiler inlines
calls before its own propagation.

XLA's SPMD pipeline runs its CallInliner before propagating, so its Shardy
(or GSPMD) propagation sees one body per call. pysdy's propagation of JAX's
module keeps the calls; where it gives a callee no sharding, Shardy's export
reshards the operand to replicated at the call, a gather XLA's own flow never
makes. On the gspmd route pysdy's propagation is the final one, so it first
inlines the calls XLA would inline.

A plain call is one XLA inlines and whose inlining loses nothing: no attribute
of its own (a host computation's `_xla_compute_type`, a result sharding) and
a callee with no sharding on its arguments or results. The other calls stay.
Private functions nothing names any more are erased.
"""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.import_.call_graph import callee_name, functions
from pysdy.passes.import_.symbols import SymbolTable, is_private, references_in, symbol_name
from pysdy.passes.registry import MODULE, Pass, register_pass

CALL_OWN_ATTRS = frozenset({"callee"})
SIGNATURE_SHARDINGS = ("sdy.sharding", "mhlo.sharding")


@register_pass
@dataclasses.dataclass(frozen=True)
class InlineCallsPass(Pass):
    argument = "pysdy-inline-calls"
    summary = (
        "Replaces each call without attributes, to a callee without shardings in its signature, by a copy of the "
        "callee's body, as XLA's CPU compiler inlines calls before propagating; erases the private functions nothing "
        "names any more."
    )
    anchor = MODULE

    def run(self, op: ir.Operation) -> None:
        symbols = SymbolTable(op)
        inlined: set[str] = set()
        while calls := [call for call in nested_ops(op, name="func.call") if _is_plain(call, symbols)]:
            for call in calls:
                inlined.add(callee_name(call))
                _inline(call, symbols.lookup(callee_name(call)))
        while dead := [
            func for func in functions(op)
            if symbol_name(func) in inlined and is_private(func) and not _referenced_elsewhere(op, func)
        ]:
            for func in dead:
                symbols.erase(func)


def _is_plain(call: ir.Operation, symbols: SymbolTable) -> bool:
    if any(name not in CALL_OWN_ATTRS for name in call.attributes):
        return False
    callee = symbols.lookup(callee_name(call))
    if callee is None or not callee.regions[0].blocks:
        return False
    attribute_lists = [callee.attributes[name] for name in ("arg_attrs", "res_attrs") if name in callee.attributes]
    for attribute_list in attribute_lists:
        for attributes in ir.ArrayAttr(attribute_list):
            if any(name in ir.DictAttr(attributes) for name in SIGNATURE_SHARDINGS):
                return False
    return True


def _referenced_elsewhere(module: ir.Operation, func: ir.Operation) -> bool:
    """Whether an op outside `func` still names it (a call kept, a custom call's computation); True when an op of
    an unregistered dialect hides its references."""
    for other in module.regions[0].blocks[0].operations:
        if other.operation == func:
            continue
        references = references_in(other.operation)
        if references is None or symbol_name(func) in references:
            return True
    return False


def _inline(call: ir.Operation, callee: ir.Operation) -> None:
    """Copies `callee`'s body before `call`, its arguments replaced by the call's operands, and the call's results
    by the values the body returns; erases the call."""
    block = callee.regions[0].blocks[0]
    values: dict[ir.Value, ir.Value] = dict(zip(block.arguments, call.operands))
    returned: list[ir.Value] = []
    for op in block.operations:
        op = op.operation
        if op.name == "func.return":
            returned = [values.get(value, value) for value in op.operands]
            break
        copy = op.clone(ir.InsertionPoint(call))
        for nested in nested_ops(copy):
            for index, operand in enumerate(nested.operands):
                if operand in values:
                    nested.operands[index] = values[operand]
        values.update(zip(op.results, copy.results))
    for result, value in zip(call.results, returned):
        result.replace_all_uses_with(value)
    call.erase()
