"""Rule of stablehlo.concatenate: pointwise, with the concatenated dimension costing communication."""

from jaxlib.mlir import ir

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


def _defining_slice(value: ir.Value):
    """The stablehlo.slice that produces `value`, or None."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        return None
    owner = getattr(owner, "operation", owner)
    return owner if owner.name == "stablehlo.slice" else None


def _unsliced(value: ir.Value) -> ir.Value:
    """The operand of the slice that produces `value`, or `value` itself."""
    slice_op = _defining_slice(value)
    return value if slice_op is None else slice_op.operands[0]


def _concat_dim_kind(operands) -> FactorKind:
    """Permutation if all operands are slices, or some are and all come from one tensor; else replication."""
    is_slice = [_defining_slice(operand) is not None for operand in operands]
    if all(is_slice):
        return FactorKind.PERMUTATION
    if any(is_slice):
        source = _unsliced(operands[0])
        if all(_unsliced(operand) == source for operand in operands):
            return FactorKind.PERMUTATION
    return FactorKind.NEED_REPLICATION


@rule_for("stablehlo.concatenate")
def concatenate(op, conservative):
    concat_dim = op.attributes["dimension"].value
    operands = list(op.operands)
    # Conservative propagation gives the concatenated dimension no factor at all.
    return (
        RuleBuilder.for_op(op)
        .add_pointwise_if(
            shape_of(op.result),
            lambda dim: not conservative or dim != concat_dim,
            lambda dim: _concat_dim_kind(operands) if dim == concat_dim else FactorKind.PASS_THROUGH,
        )
        .build()
    )
