"""Gathers and scatters that index dimensions split across devices, rewritten for each device's part as jaxlib 0.12's
Shardy rewrites them in `sdy-convert-global-to-local` (the checks that they can be are the pass's).

- A gather indexing a split dimension (its slice there one element): the
  start indices are first clamped as the global gather clamps them, then
  moved by the device's offset along each indexed dimension; an index
  outside the device's part masks its slice to zero. The device's results
  are then partial sums: one device holds each slice, the others zeros.
- A scatter into a split dimension (an inserted window dimension): the
  indices are moved by the device's offset, and the scatter drops the
  updates outside the device's part, as it drops any out of bounds.
- A scatter whose updates are split along their scatter dimensions: each
  device scatters its updates into the operand kept on the first device of
  each group and into the reduction's identity on the others, so its results
  are partial values of the scatter's reduction.

Each index component has its own offset: a constant 0 where the operand
dimension it indexes is not split. The offsets of all components go into
one vector broadcast along the index vector dimension (a scalar broadcast
where there is one component), marked replicated.

Where pysdy departs from the C++: the identity of a maximum or minimum is
minus or plus infinity for floats and 0 or the largest value for unsigned
integers (reduction_identities.py). The C++ takes the lowest or largest
finite float and the signed bounds, and the other devices' untouched
elements then hide an operand's infinities, or its unsigned values.
"""

from __future__ import annotations

import math
from typing import Optional, Sequence

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from pysdy import versions
from pysdy.dialects.sdy import AxisRef, Mesh, TensorShardingPerValue, TensorSharding
from pysdy.passes.gspmd.reduction_identities import identity
from pysdy.passes.export.local_collectives import (
    create_value,
    dimension_offset,
    first_of_groups,
    reshape,
    splat,
    tensor_type,
)

_SHARDING = "sdy.sharding"


def indexed_split_dims(op: ir.Operation, operand: Optional[TensorSharding]) -> list[int]:
    """The operand dimensions split across devices that a gather's or scatter's start indices move along one element
    at a time: a gather's slices there one element (not a batching dimension), a scatter's windows inserted there."""
    if operand is None or not operand.dims:
        return []
    if op.name == "stablehlo.gather":
        numbers = stablehlo.GatherDimensionNumbers(op.attributes["dimension_numbers"])
        sizes = list(ir.DenseI64ArrayAttr(op.attributes["slice_sizes"]))
        moved = [dim for dim in numbers.start_index_map if sizes[dim] == 1]
    else:
        numbers = stablehlo.ScatterDimensionNumbers(op.attributes["scatter_dimension_numbers"])
        moved = [dim for dim in numbers.scattered_dims_to_operand_dims if dim in set(numbers.inserted_window_dims)]
    return [dim for dim in moved if operand.dims[dim].axes]


def localize_gather(
    gather: ir.Operation, operand: TensorSharding, moved: list[int], mesh: Mesh, replicas: bool
) -> ir.Value:
    """Rewrites `gather` (operand and results already local) around its indices moving along `moved`
    (`indexed_split_dims`, of the global gather); returns the masked value its users read instead of its result."""
    numbers = stablehlo.GatherDimensionNumbers(gather.attributes["dimension_numbers"])
    indices = gather.operands[1]
    components = _Components(indices.type, numbers.index_vector_dim)
    with ir.InsertionPoint(gather), gather.location:
        element = indices.type.element_type
        full = _global_shape(gather.operands[0].type, operand, mesh)
        bounds = [full[dim] - 1 for dim in numbers.start_index_map]
        lowest = splat(indices.type, 0)  # (made first, as the C++ makes it)
        highest = _bounds(bounds, indices.type, components)
        clamped = create_value("stablehlo.clamp", indices.type, [lowest, indices, highest])
        lows, highs = [], []
        for dim in numbers.start_index_map:
            axes = operand.dims[dim].axes
            if dim in moved:
                local = gather.operands[0].type.shape[dim]
                low = _offset(axes, local, element, mesh, replicas)
                lows.append(low)
                highs.append(create_value("stablehlo.add", low.type, [low, splat(low.type, local - 1)]))
            else:
                lows.append(splat(tensor_type([], element), 0))
                highs.append(splat(tensor_type([], element), full[dim] - 1))
        low = _per_component(lows, indices.type, components, operand)
        high = _per_component(highs, indices.type, components, operand)
        gather.operands[1] = create_value("stablehlo.subtract", indices.type, [clamped, low])
        mask_type = ir.RankedTensorType.get(indices.type.shape, ir.IntegerType.get_signless(1))
        above, below = _compare("GE", clamped, low, mask_type), _compare("LE", clamped, high, mask_type)
        inside = create_value("stablehlo.and", mask_type, [above, below])
    result = gather.results[0]
    with ir.InsertionPoint.after(gather), gather.location:
        if components.dimension is not None:
            inside = _all_of(inside, components.dimension)
        batch = [dim for dim in range(len(result.type.shape)) if dim not in set(numbers.offset_dims)]
        masks = create_value(
            "stablehlo.broadcast_in_dim",
            ir.RankedTensorType.get(result.type.shape, mask_type.element_type),
            [inside],
            broadcast_dimensions=ir.DenseI64ArrayAttr.get(batch),
        )
        masked = create_value("stablehlo.select", result.type, [masks, result, splat(result.type, 0)])
    result.replace_all_uses_except(masked, masked.owner.operation)
    return masked


def localize_scatter(
    scatter: ir.Operation,
    operand: Optional[TensorSharding],
    reduced: Sequence[AxisRef],
    reduction: Optional[str],
    mesh: Mesh,
    replicas: bool,
) -> None:
    """Rewrites `scatter` (operands and results already local): its operands kept on the first device along `reduced`
    (the axes its updates are split on, where it leaves values partial by `reduction`), its indices moved by the
    device's offsets along the split dimensions they index."""
    count = len(scatter.results)
    numbers = stablehlo.ScatterDimensionNumbers(scatter.attributes["scatter_dimension_numbers"])
    with ir.InsertionPoint(scatter), scatter.location:
        if reduced:
            kept = _kept_on_first_devices(list(scatter.operands[:count]), reduced, reduction, mesh, replicas)
            for index, value in enumerate(kept):
                scatter.operands[index] = value
        moved = indexed_split_dims(scatter, operand)
        if not moved:
            return
        indices = scatter.operands[count]
        element = indices.type.element_type
        offsets = []
        for dim in numbers.scattered_dims_to_operand_dims:
            local = scatter.operands[0].type.shape[dim]
            offsets.append(
                _offset(operand.dims[dim].axes, local, element, mesh, replicas)
                if dim in moved
                else splat(tensor_type([], element), 0)
            )
        components = _Components(indices.type, numbers.index_vector_dim)
        offset = _per_component(offsets, indices.type, components, operand)
        scatter.operands[count] = create_value("stablehlo.subtract", indices.type, [indices, offset])


class _Components:
    """How the index components lie in an indices tensor: along `dimension` (None where it is implicit)."""

    def __init__(self, indices: ir.RankedTensorType, index_vector_dim: int):
        rank = len(indices.shape)
        self.dimension = index_vector_dim if index_vector_dim < rank else None
        self.count = indices.shape[index_vector_dim] if self.dimension is not None else 1


def _global_shape(local: ir.RankedTensorType, sharding: TensorSharding, mesh: Mesh) -> list[int]:
    return [
        size * math.prod(axis.size(mesh) for axis in dim.axes) for size, dim in zip(local.shape, sharding.dims)
    ]


def _offset(axes: Sequence[AxisRef], local: int, element: ir.Type, mesh: Mesh, replicas: bool) -> ir.Value:
    """The device's first index along a dimension split on `axes` into parts of `local`, as an `element` scalar."""
    offset = dimension_offset(axes, local, mesh, replicas)
    return create_value("stablehlo.convert", tensor_type([], element), [offset])


def _bounds(bounds: list[int], indices: ir.RankedTensorType, components: _Components) -> ir.Value:
    """The largest start index of each component, over the whole indices tensor."""
    if components.count == 1:
        return splat(indices, bounds[0])
    element = indices.element_type
    values = ", ".join(str(bound) for bound in bounds)
    vector_type = tensor_type([components.count], element)
    attribute = ir.Attribute.parse(f"dense<[{values}]> : {vector_type}")
    vector = create_value("stablehlo.constant", vector_type, [], value=attribute)
    return _broadcast(vector, indices, [components.dimension])


def _per_component(
    scalars: list[ir.Value], indices: ir.RankedTensorType, components: _Components, sharding: TensorSharding
) -> ir.Value:
    """One scalar per index component, broadcast over the indices tensor (marked replicated from jax 0.11, as the C++
    marks it)."""
    if components.count == 1:
        value = _broadcast(scalars[0], indices, [])
    else:
        pieces = [reshape(scalar, [1]) for scalar in scalars]
        vector = create_value(
            "stablehlo.concatenate",
            tensor_type([components.count], indices.element_type),
            pieces,
            dimension=ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0),
        )
        value = _broadcast(vector, indices, [components.dimension])
    if versions.installed().convert_global_to_local_marks_index_offsets:
        replicated = TensorSharding.fully_closed(sharding.mesh, len(indices.shape))
        value.owner.attributes[_SHARDING] = TensorShardingPerValue((replicated,)).to_attr()
    return value


def _kept_on_first_devices(
    values: list[ir.Value], axes: Sequence[AxisRef], reduction: str, mesh: Mesh, replicas: bool
) -> list[ir.Value]:
    """Each value on the first device of its group along `axes`, the identity of `reduction` on the others (values of
    one type)."""
    type_ = values[0].type
    neutral = identity(type_.element_type, reduction)
    scalar = create_value("stablehlo.constant", neutral.type, [], value=neutral)
    if versions.installed().convert_global_to_local_masks_by_scalar:
        others = _broadcast(scalar, type_, [])
        keep = reshape(first_of_groups(axes, mesh, replicas), [])
    else:
        keep = first_of_groups(axes, mesh, replicas)
        keep = _broadcast(keep, ir.RankedTensorType.get(type_.shape, keep.type.element_type), [0])
        others = _broadcast(scalar, type_, [])
    return [create_value("stablehlo.select", type_, [keep, value, others]) for value in values]


def _all_of(mask: ir.Value, dim: int) -> ir.Value:
    """`mask` and-reduced along `dim`."""
    shape = [size for index, size in enumerate(mask.type.shape) if index != dim]
    boolean = mask.type.element_type
    scalar = tensor_type([], boolean)
    init = splat(scalar, 1)
    reduce = ir.Operation.create(
        "stablehlo.reduce",
        results=[tensor_type(shape, boolean)],
        operands=[mask, init],
        attributes={"dimensions": ir.DenseI64ArrayAttr.get([dim])},
        regions=1,
    )
    block = reduce.regions[0].blocks.append(scalar, scalar, arg_locs=[ir.Location.current] * 2)
    with ir.InsertionPoint(block):
        both = create_value("stablehlo.and", scalar, list(block.arguments))
        ir.Operation.create("stablehlo.return", operands=[both])
    return reduce.results[0]


def _compare(direction: str, lhs: ir.Value, rhs: ir.Value, result: ir.Type) -> ir.Value:
    return create_value(
        "stablehlo.compare", result, [lhs, rhs], comparison_direction=stablehlo.ComparisonDirectionAttr.get(direction)
    )


def _broadcast(value: ir.Value, result: ir.Type, dims: list[int]) -> ir.Value:
    return create_value(
        "stablehlo.broadcast_in_dim", result, [value], broadcast_dimensions=ir.DenseI64ArrayAttr.get(dims)
    )
