"""Ops `sdy-convert-global-to-local` rewrites rather than retypes, as jaxlib's Shardy rewrites them.

- `stablehlo.iota` split along its iota dimension: a local iota plus the
  device's offset along that dimension (`dimension_offset`), converted to the
  element type and broadcast; split only elsewhere, a local iota. Either way
  a new op, without the old one's attributes.
- `stablehlo.slice` whose split dimensions are taken whole: a new slice of
  the local operand, from 0 to the local size along each split dimension,
  the global bounds along the others, the same strides.
- `stablehlo.dynamic_slice` whose split dimensions are taken whole: a new
  dynamic slice of the local operand with the local sizes.
- `sdy.manual_computation`: its body inlined where it stands (its arguments
  are the local operands, its results the values its `sdy.return` returns).

Whether a rewrite is right (the slice's strides fit each part, the body's
types are the operands') is the pass's to check first.
"""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.dialects.sdy import Mesh, TensorSharding
from pysdy.passes.export.local_collectives import create_value, dimension_offset, tensor_type


def local_iota(
    iota: ir.Operation, local: ir.RankedTensorType, sharding: TensorSharding, mesh: Mesh, replicas: bool
) -> ir.Value:
    """With `replicas`, the devices are replicas, told apart by replica id."""
    dimension = iota.attributes["iota_dimension"]
    value = create_value("stablehlo.iota", local, [], iota_dimension=dimension)
    axes = sharding.dims[ir.IntegerAttr(dimension).value].axes
    if not axes:
        return value
    offset = dimension_offset(axes, local.shape[ir.IntegerAttr(dimension).value], mesh, replicas)
    offset = create_value("stablehlo.convert", tensor_type([], local.element_type), [offset])
    offsets = create_value(
        "stablehlo.broadcast_in_dim", local, [offset], broadcast_dimensions=ir.DenseI64ArrayAttr.get([])
    )
    return create_value("stablehlo.add", local, [value, offsets])


def local_slice(slice_: ir.Operation, local: ir.RankedTensorType, split_dims: set[int]) -> ir.Value:
    """`split_dims`: the dimensions whose sharding names any axis (they are sliced whole)."""
    operand = slice_.operands[0]
    starts = list(ir.DenseI64ArrayAttr(slice_.attributes["start_indices"]))
    limits = list(ir.DenseI64ArrayAttr(slice_.attributes["limit_indices"]))
    for dim in split_dims:
        starts[dim], limits[dim] = 0, operand.type.shape[dim]
    return create_value(
        "stablehlo.slice",
        local,
        [operand],
        start_indices=ir.DenseI64ArrayAttr.get(starts),
        limit_indices=ir.DenseI64ArrayAttr.get(limits),
        strides=slice_.attributes["strides"],
    )


def local_dynamic_slice(slice_: ir.Operation, local: ir.RankedTensorType) -> ir.Value:
    """A dynamic slice whose split dimensions are taken whole: the same starts (each clamped to 0 along those), the
    local sizes."""
    sizes = ir.DenseI64ArrayAttr.get(list(local.shape))
    return create_value("stablehlo.dynamic_slice", local, list(slice_.operands), slice_sizes=sizes)


def inline_manual_computation(manual: ir.Operation) -> None:
    block = manual.regions[0].blocks[0]
    for argument, operand in zip(block.arguments, manual.operands):
        argument.replace_all_uses_with(operand)
    body = list(block.operations)
    terminator = body[-1]
    for op in body[:-1]:
        op.move_before(manual)
    for result, value in zip(manual.results, terminator.operands):
        result.replace_all_uses_with(value)
    terminator.erase()
    manual.erase()


def keep_only_attributes(op: ir.Operation, names: frozenset[str]) -> None:
    """Drops every attribute but `names`, as an op the C++ makes anew has only its own."""
    for name in [getattr(entry, "name", entry) for entry in op.attributes]:  # names, or named attributes
        if name not in names:
            del op.attributes[name]
