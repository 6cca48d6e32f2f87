"""`sdy-explicit-gather-scatter-batching`: a gather or scatter that indexes operand dim 0 with an iota over
its indices' dim 0 gets that dim as an explicit batching dim, so propagation sees it as one factor.

As in Shardy, the rewrite is two patterns run by MLIR's greedy rewrite driver in its default
configuration, so every function is also folded the way that driver does it (dead ops erased, constants
folded, deduplicated and hoisted), whether or not a gather or scatter changes.
"""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir
from jaxlib.mlir._mlir_libs._mlir import rewrite
from jaxlib.mlir.dialects import stablehlo

from pysdy.passes.registry import FUNC, Pass, PassFailure, register_pass

# The batch dim this pass recognizes: dim 0 of the operand and of the indices.
BATCH_DIM = 0
# Ops the iota is looked for through, with the operand that carries it.
_PASS_THROUGH_OPERAND = {"stablehlo.reshape": 0, "stablehlo.broadcast_in_dim": 0, "stablehlo.clamp": 1}
# What a pattern callback returns to tell the driver it did not rewrite.
_NO_MATCH = True


def _shape(value: ir.Value) -> list[int]:
    return list(ir.RankedTensorType(value.type).shape)


def _defining_op(value: ir.Value) -> ir.Operation | None:
    return value.owner if isinstance(value, ir.OpResult) else None


def _defined_by(value: ir.Value, name: str) -> bool:
    op = _defining_op(value)
    return op is not None and op.name == name


def _int_attr(op: ir.Operation, name: str) -> int:
    return ir.IntegerAttr(op.attributes[name]).value


def _explicit_batching(
    operand: ir.Value, indices: ir.Value, index_vector_dim: int, index_map: list[int], collapsed_dims: list[int]
) -> tuple[list[int], list[int], int] | None:
    """For a gather or scatter indexing `operand` with `indices` (`index_map` is its `start_index_map`
    or `scatter_dims_to_operand_dims`, `collapsed_dims` its `collapsed_slice_dims` or
    `inserted_window_dims`): the index map and collapsed dims without the batch dim, and the index
    vector component that addressed it, when that component is an iota over the batch; else None."""
    operand_shape, indices_shape = _shape(operand), _shape(indices)
    if not operand_shape or not indices_shape:
        return None
    if index_vector_dim >= len(indices_shape) or indices_shape[index_vector_dim] <= 1:
        return None
    if indices_shape[BATCH_DIM] != operand_shape[BATCH_DIM] or BATCH_DIM not in index_map:
        return None
    component = index_map.index(BATCH_DIM)
    if not _is_batch_iota(indices, index_vector_dim, component) or BATCH_DIM not in collapsed_dims:
        return None
    without_batch = [d for d in index_map if d != BATCH_DIM]
    return without_batch, [d for d in collapsed_dims if d != BATCH_DIM], component


def _is_batch_iota(indices: ir.Value, index_vector_dim: int, component: int) -> bool:
    """Whether index vector component `component` comes from an iota along dim 0, looking through a
    concatenate of the index vector (taking its `component`-th input, as Shardy does, whatever the
    inputs' widths) and then through reshapes, broadcasts, clamps and selects (a select's false side
    when that is an iota, else its true side)."""
    value = indices
    concat = _defining_op(value)
    if concat is not None and concat.name == "stablehlo.concatenate":
        if _int_attr(concat, "dimension") != index_vector_dim or component >= len(concat.operands):
            return False
        value = concat.operands[component]
    while (op := _defining_op(value)) is not None:
        if op.name in _PASS_THROUGH_OPERAND:
            value = op.operands[_PASS_THROUGH_OPERAND[op.name]]
        elif op.name == "stablehlo.select":
            on_true, on_false = op.operands[1], op.operands[2]
            value = on_false if _defined_by(on_false, "stablehlo.iota") else on_true
        else:
            break
    return _defined_by(value, "stablehlo.iota") and _int_attr(value.owner, "iota_dimension") == 0


def _with_dim(shape: list[int], dim: int, size: int) -> list[int]:
    shape = list(shape)
    shape[dim] = size
    return shape


def _without_component(indices: ir.Value, index_vector_dim: int, component: int) -> ir.Value:
    """`indices` without index vector component `component`: the other inputs of the concatenate that
    built it, when it has one input per component, else slices of it around that component."""
    shape = _shape(indices)
    total = shape[index_vector_dim]
    concat = _defining_op(indices)
    if (
        concat is not None
        and concat.name == "stablehlo.concatenate"
        and _int_attr(concat, "dimension") == index_vector_dim
        and len(concat.operands) == total
    ):
        parts = [value for i, value in enumerate(concat.operands) if i != component]
    else:
        bounds = [(start, end) for start, end in ((0, component), (component + 1, total)) if start < end]
        parts = [_slice(indices, index_vector_dim, start, end) for start, end in bounds]
    if len(parts) == 1:
        return parts[0]
    element_type = ir.RankedTensorType(indices.type).element_type
    result_type = ir.RankedTensorType.get(_with_dim(shape, index_vector_dim, total - 1), element_type)
    dimension = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), index_vector_dim)
    return ir.Operation.create(
        "stablehlo.concatenate", results=[result_type], operands=parts, attributes={"dimension": dimension}
    ).result


def _slice(value: ir.Value, dim: int, start: int, end: int) -> ir.Value:
    shape = _shape(value)
    rank = len(shape)
    attributes = {
        "start_indices": ir.DenseI64ArrayAttr.get(_with_dim([0] * rank, dim, start)),
        "limit_indices": ir.DenseI64ArrayAttr.get(_with_dim(shape, dim, end)),
        "strides": ir.DenseI64ArrayAttr.get([1] * rank),
    }
    element_type = ir.RankedTensorType(value.type).element_type
    result_type = ir.RankedTensorType.get(_with_dim(shape, dim, end - start), element_type)
    return ir.Operation.create("stablehlo.slice", results=[result_type], operands=[value], attributes=attributes).result


def _bool_attr(op: ir.Operation, name: str) -> ir.Attribute:
    """A boolean attribute of `op`, explicit (false when absent) as Shardy's op builders set it."""
    return ir.BoolAttr.get(name in op.attributes and ir.BoolAttr(op.attributes[name]).value)


@dataclasses.dataclass(frozen=True)
class _Rewrite:
    """How to replace a gather or scatter: its indices operand loses index vector component
    `component`, its dimension numbers attribute `numbers_name` becomes `numbers`, and the
    `bool_attrs` become explicit."""

    indices_position: int
    index_vector_dim: int
    component: int
    numbers_name: str
    numbers: ir.Attribute
    bool_attrs: tuple[str, ...]

    def apply(self, op: ir.Operation, rewriter: rewrite.PatternRewriter) -> None:
        """Replaces `op` by a new op of its name, results, other attributes and regions (moved), at its
        location; the new indices ops go before it."""
        with op.location, ir.InsertionPoint(op):
            operands = list(op.operands)
            indices = operands[self.indices_position]
            operands[self.indices_position] = _without_component(indices, self.index_vector_dim, self.component)
            attributes = {name: op.attributes[name] for name in op.attributes}
            attributes[self.numbers_name] = self.numbers
            attributes.update({name: _bool_attr(op, name) for name in self.bool_attrs})
            new_op = ir.Operation.create(
                op.name,
                results=[result.type for result in op.results],
                operands=operands,
                attributes=attributes,
                regions=len(op.regions),
            )
        for old_region, new_region in zip(op.regions, new_op.regions):
            for block in list(old_region.blocks):
                block.append_to(new_region)
        rewriter.replace_op(op, new_op)


def _rewrite_gather(op: ir.OpView, rewriter: rewrite.PatternRewriter) -> bool | None:
    op = op.operation
    numbers = stablehlo.GatherDimensionNumbers(op.attributes["dimension_numbers"])
    if len(numbers.operand_batching_dims):
        return _NO_MATCH
    operand, indices = op.operands
    index_vector_dim = numbers.index_vector_dim
    found = _explicit_batching(
        operand, indices, index_vector_dim, list(numbers.start_index_map), list(numbers.collapsed_slice_dims)
    )
    if found is None:
        return _NO_MATCH
    index_map, collapsed_dims, component = found
    explicit = stablehlo.GatherDimensionNumbers.get(
        offset_dims=list(numbers.offset_dims),
        collapsed_slice_dims=collapsed_dims,
        operand_batching_dims=[BATCH_DIM],
        start_indices_batching_dims=[BATCH_DIM],
        start_index_map=index_map,
        index_vector_dim=index_vector_dim,
        context=op.context,
    )
    _Rewrite(1, index_vector_dim, component, "dimension_numbers", explicit, ("indices_are_sorted",)).apply(op, rewriter)
    return None


def _rewrite_scatter(op: ir.OpView, rewriter: rewrite.PatternRewriter) -> bool | None:
    """Operands are (inputs..., scatter_indices, updates...)."""
    op = op.operation
    numbers = stablehlo.ScatterDimensionNumbers(op.attributes["scatter_dimension_numbers"])
    if len(numbers.input_batching_dims):
        return _NO_MATCH
    num_inputs = len(op.results)
    first_input, indices = op.operands[0], op.operands[num_inputs]
    index_vector_dim = numbers.index_vector_dim
    found = _explicit_batching(
        first_input,
        indices,
        index_vector_dim,
        list(numbers.scattered_dims_to_operand_dims),
        list(numbers.inserted_window_dims),
    )
    if found is None:
        return _NO_MATCH
    index_map, inserted_dims, component = found
    explicit = stablehlo.ScatterDimensionNumbers.get(
        update_window_dims=list(numbers.update_window_dims),
        inserted_window_dims=inserted_dims,
        input_batching_dims=[BATCH_DIM],
        scatter_indices_batching_dims=[BATCH_DIM],
        scattered_dims_to_operand_dims=index_map,
        index_vector_dim=index_vector_dim,
        context=op.context,
    )
    bool_attrs = ("indices_are_sorted", "unique_indices")
    _Rewrite(num_inputs, index_vector_dim, component, "scatter_dimension_numbers", explicit, bool_attrs).apply(
        op, rewriter
    )
    return None


@register_pass
@dataclasses.dataclass(frozen=True)
class ExplicitGatherScatterBatchingPass(Pass):
    argument = "sdy-explicit-gather-scatter-batching"
    summary = "Makes the batch dim a gather or scatter indexes with an iota an explicit batching dim."
    anchor = FUNC
    leaves_invalid_ir = True  # e.g. a slice of a dynamic dimension, which the verifier then rejects

    def run(self, op: ir.Operation) -> None:
        patterns = rewrite.RewritePatternSet(op.context)
        patterns.add("stablehlo.gather", _rewrite_gather)
        patterns.add("stablehlo.scatter", _rewrite_scatter)
        try:
            rewrite.apply_patterns_and_fold_greedily(op, patterns.freeze(), rewrite.GreedyRewriteConfig())
        except RuntimeError as error:  # the driver did not converge, which Shardy's pass reports as failure
            op.location.emit_error(f"{self.argument}: {error}")
            raise PassFailure() from None
