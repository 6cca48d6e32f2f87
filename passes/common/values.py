"""Facts about an IR value that building shardings and ops needs: its rank, whether its shape is static, where to insert after it."""

from __future__ import annotations

from jaxlib.mlir import ir


def rank(value: ir.Value) -> int:
    """The rank of a ranked tensor value, 0 for anything else."""
    return type_rank(value.type)


def type_rank(type_: ir.Type) -> int:
    """The rank of a ranked tensor type, 0 for any other type."""
    return type_.rank if isinstance(type_, ir.ShapedType) and type_.has_rank else 0


def is_static_shaped(value: ir.Value) -> bool:
    return isinstance(value.type, ir.ShapedType) and value.type.has_static_shape


def insertion_point_after(value: ir.Value) -> ir.InsertionPoint:
    """Right after the op defining `value`, or at the start of the block `value` is an argument of."""
    if isinstance(value, ir.OpResult):
        return ir.InsertionPoint.after(value.owner)
    return ir.InsertionPoint.at_block_begin(value.owner)
