"""Constant ops: which ops are constants, and rewriting one as another (`stablehlo.constant` <-> `sdy.constant`),
keeping its value, attributes and location, even for the element attributes jaxlib's bindings cannot hand to Python."""

from __future__ import annotations

from jaxlib.mlir import ir

# Ops with MLIR's ConstantLike trait among the dialects pysdy's context loads that can yield a tensor
# (the bindings cannot ask an op for that trait).
CONSTANT_LIKE_OPS = frozenset(
    {"sdy.constant", "stablehlo.constant", "mhlo.constant", "chlo.constant", "arith.constant", "ub.poison"}
)


def is_constant(value: ir.Value) -> bool:
    """Whether `value` is the result of a constant op (MLIR's `m_Constant()`)."""
    return isinstance(value, ir.OpResult) and value.owner.name in CONSTANT_LIKE_OPS


def replace_constant(op: ir.Operation, new_name: str) -> ir.Operation:
    """Replaces the single-result constant `op` by a `new_name` op with the same attributes, location and uses;
    returns the new op.

    Reading some dense attributes raises or aborts in the bindings (complex
    elements: "Can't cast unknown element type"), so the value is only read
    when its element type is one Python can hold; otherwise the new op is
    parsed from the old one's generic text.
    """
    names = list(op.attributes)
    result_type = op.results[0].type
    if _readable(result_type):
        new_op = ir.Operation.create(
            new_name,
            results=[result_type],
            attributes={name: op.attributes[name] for name in names},
            loc=op.location,
            ip=ir.InsertionPoint(op),
        )
    else:
        new_op = _reparsed(op, new_name, [name for name in names if name != "value"])
    op.results[0].replace_all_uses_with(new_op.results[0])
    op.erase()
    return new_op


def _readable(type_: ir.Type) -> bool:
    """Whether the bindings can read a dense attribute of this type: integer, index or float elements."""
    if not isinstance(type_, ir.ShapedType):
        return True
    element = type_.element_type
    return isinstance(element, (ir.IntegerType, ir.IndexType, ir.FloatType))


def _reparsed(op: ir.Operation, new_name: str, others: list[str]) -> ir.Operation:
    """`op` renamed by printing and parsing it; attributes other than the value move over afterwards, since
    parsing verifies the detached op and an attribute naming a symbol (a mesh) would not verify there."""
    moved = {name: op.attributes[name] for name in others}
    for name in others:
        del op.attributes[name]
    text = op.get_asm(print_generic_op_form=True, enable_debug_info=True, use_local_scope=True)
    generic = text.split(" = ", 1)[1].replace(f'"{op.name}"', f'"{new_name}"', 1)
    new_op = ir.Operation.parse(generic, context=op.context)
    ir.InsertionPoint(op).insert(new_op)
    for name, attr in moved.items():
        new_op.attributes[name] = attr
    return new_op
