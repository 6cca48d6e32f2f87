"""`sdy-convert-global-to-local`: a partitioned module from global to local (per-device) shapes, its sdy collectives
as StableHLO collectives, as jaxlib's Shardy converts it.

A value's local shape is its global shape with each dimension divided by the
sizes of the axes its sharding splits it on: a function argument's or
result's sharding, an op result's (`sdy.sharding`, a collective's
`out_sharding`, a manual computation's `out_shardings`), a loop region's
argument's (the loop's). Ops that only carry values (StableHLO ops, calls,
returns, loops, conditionals) keep their operands and attributes and take
their results' local types: so do windows, pads, concatenations, gathers and
scatters along dimensions that are not split (a gather's slice sizes and a
convolution's group counts local, a pad or convolution made anew without
other attributes, as the C++ does); `sdy.constant` becomes
`stablehlo.constant`; each sdy collective becomes the per-device code of
`local_collectives.py`, numbered from the first channel id after the
module's largest (`sdy.replicated_to_unreduced` too: zeros on all devices
but one of each group); iotas, slices and dynamic slices with a sharding that
names an axis, and manual computations, are rewritten (`local_rewrites.py`);
so are gathers and scatters indexing a split dimension one element at a time,
and scatters whose updates are split along their scatter dimensions
(`local_indexing.py`); from jax 0.12 a dot's, convolution's, gather's,
reduce's or scatter's partial results that no sdy collective reads are
finished (`finish_partial_results.py`).

Before changing anything pysdy refuses, with an error at the op, what it does
not convert yet (padding a split dimension, a gather taking one element of a
split dimension at no start index, a scatter into a split dimension along a
window, scatters of several operands with split updates, split named
computations, multi-parameter all-to-alls, non-splat constants split
across devices, collectives with more
than one replica), what the C++ fails on (a slice of part of a split
dimension, a window or concatenation along one), and what would compute
wrong values on each device's part, which the C++ converts blindly
(`local_semantics.py`; an all-reduce of values that are not partial; values
passed to a function result, callee
argument, loop or branch result, or manual computation split otherwise; a
strided slice whose stride does not fit each part; a convolution window over
a split spatial dimension). Like the C++, it fails on a module given both
more than one replica and more than one partition.

Whole values marked partial sums (a constant's or op's result with unreduced
axes no operand and no split reduction of the op explains) are kept on the
first device of each group along those axes, zeros on the others, as XLA's own
route keeps them (`made_partial`); jax 0.12's C++ does so for constants only.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Optional

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from pysdy import versions
from pysdy.dialects.sdy import AxisRef, ManualAxes, Mesh, TensorSharding, TensorShardingPerValue
from pysdy.passes.common.constants import replace_constant
from pysdy.passes.common.func_attrs import arg_shardings, result_shardings
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.manual_axes import enclosing_manual_computation
from pysdy.passes.common.collective_attrs import all_to_all_params, axis_list, axis_lists, reduction
from pysdy.passes.common.reduction_bodies import body_reduction
from pysdy.passes.common.values import type_rank
from pysdy.passes.gspmd.reduction_identities import identity_refusal
from pysdy.passes.export.local_collectives import (
    CollectiveBuilder,
    dynamic_slice,
    permutation_pairs,
    replicated_to_unreduced,
)
from pysdy.passes.export.local_rewrites import (
    inline_manual_computation,
    keep_only_attributes,
    local_dynamic_slice,
    local_iota,
    local_slice,
)
from pysdy.passes.export.finish_partial_results import finish_partial_results
from pysdy.passes.export.local_indexing import indexed_split_dims, localize_gather, localize_scatter
from pysdy.passes.export.local_semantics import (
    finished_axes,
    local_problem,
    same_devices,
    split_reduction_axes,
    unfinished_reduction_axes,
)
from pysdy.passes.export.reshard_ir import MeshTable
from pysdy.passes.registry import Pass, PassFailure, option, register_pass

_PASS = "sdy-convert-global-to-local"
SHARDING = "sdy.sharding"
# Ops whose regions return the values the op carries (a loop's regions also take them as arguments).
_CARRYING_REGION_OPS = frozenset({"stablehlo.while", "stablehlo.case", "stablehlo.if"})
_CONVOLUTION_ATTRIBUTES = frozenset(
    "window_strides padding lhs_dilation rhs_dilation window_reversal dimension_numbers feature_group_count "
    "batch_group_count precision_config".split()
)
# The checks of ops the C++ converts along some split dimensions only.
_SPLIT_DIMENSION_CHECKS = {
    "stablehlo.gather": "check_gather",
    "stablehlo.scatter": "check_scatter",
    "stablehlo.concatenate": "check_concatenate",
    "stablehlo.convolution": "check_convolution",
    "stablehlo.reduce_window": "check_windows",
    "stablehlo.select_and_scatter": "check_windows",
    "stablehlo.pad": "check_pad",
}
# Ops converted by their operands' shardings (read before the ops that make them are converted).
_READS_OPERAND_SHARDINGS = frozenset(
    {"sdy.collective_permute", "sdy.reduce_scatter", "stablehlo.convolution", "stablehlo.pad", "stablehlo.gather",
     "stablehlo.scatter"}
)
_PAD_ATTRIBUTES = frozenset({"edge_padding_low", "edge_padding_high", "interior_padding"})
_SLICES = frozenset({"stablehlo.slice", "stablehlo.dynamic_slice"})
# Ops the C++ rewrites (local_rewrites.py) where a sharding of theirs names an axis, else keeps.
_REWRITTEN = _SLICES | {"stablehlo.iota"}
_DOTS = frozenset({"stablehlo.dot", "stablehlo.dot_general"})
_COLLECTIVES = frozenset(
    {"sdy.all_reduce", "sdy.all_gather", "sdy.all_slice", "sdy.all_to_all", "sdy.collective_permute",
     "sdy.reduce_scatter", "sdy.replicated_to_unreduced"}
)
_CARRIERS = frozenset({"func.call", "func.return", "sdy.return"})
_NAMED_SHARDINGS = ("in_shardings", "out_shardings")
# Where jax 0.12's pass records main's global argument and result shardings on the module.
MAIN_SHARDING_RECORDS = ("sdy.parameters_shardings", "sdy.output_shardings")


@register_pass
@dataclasses.dataclass(frozen=True)
class ConvertGlobalToLocalPass(Pass):
    argument = _PASS
    summary = "Converts an SDY program from global shapes to local shapes."

    combine_multi_dimension_reduce_scatter: bool = option(
        False, "Combine multi-dimension reduce-scatter into a single reduce-scatter."
    )
    enable_rgv3: bool = option(
        versions.installed().convert_global_to_local_rgv3_by_default,
        "Use StableHLO ReplicaGroupV3 (mesh-axes based) for collectives.",
    )
    partition_count: int = option(1, "The number of partitions.", line_field="convert_global_to_local_device_counts")
    per_dim_all_gather: bool = option(
        False, "Keep per-dimension all-gather without combining them into a single all-gather."
    )
    replica_count: int = option(1, "The number of replicas.", line_field="convert_global_to_local_device_counts")

    def run(self, op: ir.Operation) -> None:
        if self.replica_count > 1 and self.partition_count > 1:
            op.location.emit_error(
                "Shardy partitioner convert_global_to_local does not support both replica_count > 1 and "
                "partition_count > 1 yet."
            )
            raise PassFailure()
        with op.location:  # where types made on the way report problems
            _Conversion(op, self).run()


def _refuse(op: ir.Operation, reason: str) -> None:
    op.location.emit_error(f"{_PASS}: pysdy does not implement converting '{op.name}' {reason}")
    raise PassFailure()


class _Conversion:
    def __init__(self, module: ir.Operation, options: ConvertGlobalToLocalPass):
        self.module = module
        self.options = options
        self.meshes = MeshTable(module)
        self.ops = nested_ops(module, pre_order=True)[1:]

    # ------------------------------------------------------------------
    # Local types
    # ------------------------------------------------------------------

    def local_type(self, type_: ir.Type, sharding: Optional[TensorSharding]) -> ir.Type:
        if sharding is None or not isinstance(type_, ir.RankedTensorType) or not sharding.dims:
            return type_  # no sharding, or a maximal one (on one device, whole)
        mesh = self.meshes.of(sharding)
        shape = []
        for size, dim in zip(type_.shape, sharding.dims):
            count = math.prod(axis.size(mesh) for axis in dim.axes)
            if size % count:
                raise _NotDivisible(size, count)
            shape.append(size // count)
        return ir.RankedTensorType.get(shape, type_.element_type, type_.encoding)

    def result_shardings(self, op: ir.Operation) -> list[Optional[TensorSharding]]:
        if op.name in _COLLECTIVES:
            return [TensorSharding.from_attr(op.attributes["out_sharding"])]
        if op.name == "sdy.manual_computation":
            return list(TensorShardingPerValue.from_attr(op.attributes["out_shardings"]).shardings)
        if SHARDING in op.attributes:
            return list(TensorShardingPerValue.from_attr(op.attributes[SHARDING]).shardings)
        return [None] * len(op.results)

    def changes(self, op: ir.Operation) -> bool:
        """Whether any result of `op` (or argument, for a function) gets a local type other than its global one."""
        if op.name == "func.func":
            types = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
            pairs = list(zip(types.inputs, arg_shardings(op))) + list(zip(types.results, result_shardings(op)))
        else:
            pairs = [(result.type, sharding) for result, sharding in zip(op.results, self.result_shardings(op))]
        return any(self.local_type(type_, sharding) != type_ for type_, sharding in pairs)

    # ------------------------------------------------------------------
    # What pysdy converts
    # ------------------------------------------------------------------

    def check(self, op: ir.Operation) -> None:
        """Refuses `op` where pysdy cannot convert it as the C++ does."""
        name = op.name
        try:
            changes = self.changes(op)
        except _NotDivisible as error:
            _refuse(op, f"with a dimension of size {error.size} split {error.count} ways (not divisible)")
        if name in _CARRIERS or name == "stablehlo.return":
            self.check_flow(op)
            return
        if name == "sdy.manual_computation":
            self.check_manual_computation(op)
            return
        if name == "sdy.named_computation":
            shardings = [TensorShardingPerValue.from_attr(op.attributes[key]).shardings for key in _NAMED_SHARDINGS
                         if key in op.attributes]
            if any(self.local_dims(sharding) for listed in shardings for sharding in listed):
                _refuse(op, "with a dimension split across devices")
            return  # kept as it is, as the C++ keeps it
        if name in ("func.func", "sdy.mesh", "sdy.constant"):
            if name == "sdy.constant" and changes and not _is_splat(op):
                _refuse(op, "a constant split across devices that is not one repeated value (or is complex)")
            return
        if name in _COLLECTIVES:
            self.check_collective(op)
            return
        if name in _CARRYING_REGION_OPS:
            self.check_carried(op)
            return
        if name in _SLICES:
            self.check_slice(op)
            return
        if name == "stablehlo.iota":
            return  # no operands, and its local form adds the device's offset
        if _has_side_effects(op) and self.several_devices and enclosing_manual_computation(op) is None:
            _refuse(op, "with side effects outside a manual computation (every device would run them, not one)")
        if name in _SPLIT_DIMENSION_CHECKS:  # which split dimensions the C++ converts the op along
            getattr(self, _SPLIT_DIMENSION_CHECKS[name])(op)
        if name.startswith("stablehlo."):
            self.check_local_semantics(op)
            return
        operands_split = any(self.local_dims(self.value_sharding(value)) for value in op.operands)
        if changes or operands_split or name.startswith("sdy."):
            _refuse(op, "(an op pysdy's conversion has no rule for)")

    def check_collective(self, op: ir.Operation) -> None:
        if self.options.replica_count > 1:
            _refuse(op, "with replica-count above 1 (the C++ then reads devices from replica ids)")
        if op.name in ("sdy.all_reduce", "sdy.reduce_scatter") and not self.reads_partial_values(op):
            op.location.emit_error(
                f"{_PASS}: '{op.name}' over axes its operand is not partial along (no unreduced axes, no split "
                "reduction before it): on local parts it would reduce whole values again and compute wrong values"
            )
            raise PassFailure()
        if op.name == "sdy.reduce_scatter" and self.options.combine_multi_dimension_reduce_scatter:
            if sum(1 for axes in axis_lists(op, "reduce_scatter_axes") if axes) > 1:
                _refuse(op, "over several dimensions with combine-multi-dimension-reduce-scatter")
        if op.name == "sdy.replicated_to_unreduced":
            out = TensorSharding.from_attr(op.attributes["out_sharding"])
            if out.reduction != "sum":
                _refuse(op, f"making values partial by {out.reduction} (the C++ aborts)")
            if not _is_number(op.results[0].type):
                _refuse(op, f"of {op.results[0].type.element_type}")
        if op.name == "sdy.all_to_all" and len(all_to_all_params(op)) != 1:
            _refuse(op, "with more than one parameter")
        if op.name == "sdy.collective_permute":
            shardings = [self.value_sharding(op.operands[0]), TensorSharding.from_attr(op.attributes["out_sharding"])]
            if any(sharding is None for sharding in shardings):
                _refuse(op, "whose operand has no sharding")
            if shardings[0].dims == shardings[1].dims:
                _refuse(op, "that moves nothing (Shardy's canonicalizer removes it; jaxlib's C++ aborts here)")

    def check_local_semantics(self, op: ir.Operation) -> None:
        """Refuses an op with a split dimension whose local computation would give wrong values (local_semantics.py),
        and a dot reading, along a split contracting dimension, an operand padded with anything but zeros."""
        operands = [self.value_sharding(value) for value in op.operands]
        results = self.result_shardings(op)
        # (a result unreduced along axes no operand is: partial values made from whole ones, unless a split reduction
        # makes them, which local_problem asks)
        made_partial = {a for s in results if s is not None for a in s.unreduced} - {
            a for s in operands if s is not None for a in s.unreduced
        }
        split = [s for s in operands + results if self.local_dims(s) or (s is not None and made_partial)]
        if not split:
            return
        problem = local_problem(op, operands, results, self.meshes.of(split[0]))
        if problem is None and op.name in _DOTS and any(
            isinstance(v, ir.OpResult) and v.owner.name == "stablehlo.pad" and not _zero_padded(v.owner)
            for v in op.operands
        ):
            problem = "reading an operand padded with something other than zeros, which its partial sums would count"
        if problem is not None:
            op.location.emit_error(f"{_PASS}: '{op.name}' {problem}: on local parts it would compute wrong values")
            raise PassFailure()

    def check_slice(self, op: ir.Operation) -> None:
        """Where the C++ slices locally (a sharding of a slice or dynamic slice names an axis), each dimension must
        be split alike in operand and result and, where split, taken whole (the C++ fails otherwise), with strides
        that fit each part."""
        operand, result = self.value_sharding(op.operands[0]), self.result_shardings(op)[0]
        if not self.names_axes(op) or (operand is not None and operand.unreduced):
            self.check_local_semantics(op)  # also reports partial values
            return
        operand_dims = _axes_per_dim(operand, type_rank(op.operands[0].type))
        if operand_dims != _axes_per_dim(result, type_rank(op.results[0].type)):
            _refuse(op, "with an operand and result split differently (the C++ fails: a reshard is missing)")
        full = op.operands[0].type.shape
        if op.name == "stablehlo.slice":
            starts, limits, strides = (
                list(ir.DenseI64ArrayAttr(op.attributes[key])) for key in ("start_indices", "limit_indices", "strides")
            )
            whole = [starts[dim] == 0 and limits[dim] == full[dim] for dim in range(len(full))]
        else:
            whole = [size == extent for size, extent in zip(ir.DenseI64ArrayAttr(op.attributes["slice_sizes"]), full)]
            strides = [1] * len(full)
        local = self.local_type(op.operands[0].type, operand).shape if operand is not None else full
        for dim, axes in enumerate(operand_dims):
            if not axes:
                continue
            if not whole[dim]:
                _refuse(op, f"taking part of split dimension {dim} (the C++ fails: it needs communication)")
            if local[dim] % strides[dim]:
                op.location.emit_error(
                    f"{_PASS}: 'stablehlo.slice' with stride {strides[dim]} along dimension {dim}, split into parts "
                    f"of {local[dim]}: on local parts it would compute wrong values"
                )
                raise PassFailure()
        if op.name == "stablehlo.dynamic_slice":
            self.check_local_semantics(op)

    def check_gather(self, op: ir.Operation) -> None:
        """Locally, a gather takes start indices into the operand's part: an operand dimension split across devices
        must be a batching dimension, be sliced whole, or be indexed one element at a time (local_indexing.py)."""
        operand = self.value_sharding(op.operands[0])
        if operand is None or not operand.dims:
            return
        numbers = stablehlo.GatherDimensionNumbers(op.attributes["dimension_numbers"])
        sizes = list(ir.DenseI64ArrayAttr(op.attributes["slice_sizes"]))
        full = op.operands[0].type.shape
        for dim, dim_sharding in enumerate(operand.dims):
            if not dim_sharding.axes or dim in numbers.operand_batching_dims:
                continue
            if sizes[dim] == full[dim]:
                continue  # (a start index into it is clamped to 0, globally and locally)
            if sizes[dim] != 1:
                _refuse(op, f"taking part of split operand dimension {dim} (the C++ aborts)")
            elif dim not in numbers.start_index_map:
                _refuse(op, f"taking one element of split operand dimension {dim} at no start index")
            elif not _is_number(op.results[0].type):
                _refuse(op, f"of {op.results[0].type.element_type} indexing split operand dimension {dim}")

    def check_convolution(self, op: ir.Operation) -> None:
        """A window sliding over a dimension split across devices would need its neighbours' elements (a halo); the
        C++ convolves each part alone."""
        numbers = stablehlo.ConvDimensionNumbers(op.attributes["dimension_numbers"])
        spatial = (
            (self.value_sharding(op.operands[0]), numbers.input_spatial_dimensions),
            (self.value_sharding(op.operands[1]), numbers.kernel_spatial_dimensions),
            (self.result_shardings(op)[0], numbers.output_spatial_dimensions),
        )
        for sharding, dims in spatial:
            if any(self.local_dims(sharding) and self.local_dims(sharding)[dim] for dim in dims):
                op.location.emit_error(
                    f"{_PASS}: 'stablehlo.convolution' with a spatial dimension split across devices (each part's "
                    "windows would miss its neighbours' elements): on local parts it would compute wrong values"
                )
                raise PassFailure()

    def check_windows(self, op: ir.Operation) -> None:
        """The C++ reduces (or selects and scatters) each part alone: a split dimension must be one the window passes
        over element by element (size, stride and dilations 1, no padding); it aborts on any other."""
        rank = type_rank(op.operands[0].type)
        window = _i64s(op, "window_dimensions", [1] * rank)
        steps = ("window_strides", "base_dilations", "window_dilations")
        checks = [window] + [_i64s(op, key, [1] * rank) for key in steps]
        padding = _padding_pairs(op, rank)
        windowed = op.operands[:1] if op.name == "stablehlo.select_and_scatter" else op.operands[: len(op.results)]
        for value in windowed:
            for dim, axes in enumerate(_axes_per_dim(self.value_sharding(value), rank)):
                if axes and (any(values[dim] != 1 for values in checks) or padding[dim] != (0, 0)):
                    _refuse(op, f"with a window over split dimension {dim} (the C++ aborts)")

    def check_pad(self, op: ir.Operation) -> None:
        """Padding along a split dimension moves elements between parts; the C++ pads locally only where it pads no
        split dimension."""
        rank = type_rank(op.operands[0].type)
        operand, result = self.value_sharding(op.operands[0]), self.result_shardings(op)[0]
        if _axes_per_dim(operand, rank) != _axes_per_dim(result, rank) and (operand is not None and operand.dims):
            _refuse(op, "with an operand and result split differently (the C++ aborts: a reshard is missing)")
        paddings = [_i64s(op, key, [0] * rank) for key in ("edge_padding_low", "edge_padding_high", "interior_padding")]
        for dim, axes in enumerate(_axes_per_dim(operand, rank)):
            if axes and any(values[dim] for values in paddings):
                _refuse(op, f"padding split dimension {dim}")

    def check_scatter(self, op: ir.Operation) -> None:
        """Locally, a scatter puts each update at indices into the operand's part: an operand dimension split across
        devices must be a batching dimension, a window the updates cover whole, or an inserted dimension an index
        moves along; updates split along their scatter dimensions leave partial values (local_indexing.py)."""
        count = len(op.results)
        operand_rank = type_rank(op.operands[0].type)
        numbers = stablehlo.ScatterDimensionNumbers(op.attributes["scatter_dimension_numbers"])
        indexed = set(numbers.scattered_dims_to_operand_dims)
        inserted = set(numbers.inserted_window_dims)
        batching = set(numbers.input_batching_dims)
        windows = [dim for dim in range(operand_rank) if dim not in inserted | batching]
        update_shape = op.operands[count + 1].type.shape
        updates = self.value_sharding(op.operands[count + 1])
        update_batching = set(numbers.update_window_dims)
        for dim, axes in enumerate(_axes_per_dim(updates, len(update_shape))):
            if axes and dim not in update_batching and not _is_update_batch_dim(dim, numbers, updates):
                if count > 1:
                    _refuse(op, f"of several operands with updates split along scatter dimension {dim}")
                if not _is_number(op.results[0].type):
                    element = op.results[0].type.element_type
                    _refuse(op, f"of {element} with updates split along scatter dimension {dim}")
        for value in op.operands[:count]:
            for dim, axes in enumerate(_axes_per_dim(self.value_sharding(value), operand_rank)):
                if not axes or dim in batching or (dim in indexed and dim in inserted):
                    continue
                if dim in indexed or dim in inserted:
                    _refuse(op, f"scattering into split operand dimension {dim} along a window")
                update_dim = numbers.update_window_dims[windows.index(dim)]
                if update_shape[update_dim] != value.type.shape[dim]:
                    _refuse(op, f"with updates covering part of split operand dimension {dim}")

    def check_concatenate(self, op: ir.Operation) -> None:
        """The C++ concatenates local parts only along a dimension no operand or result is split on."""
        dim = ir.IntegerAttr(op.attributes["dimension"]).value
        shardings = [self.value_sharding(value) for value in op.operands] + self.result_shardings(op)
        if any(s is not None and s.dims and s.dims[dim].axes for s in shardings):
            _refuse(op, f"along dimension {dim}, which is split across devices (the C++ fails)")

    def check_manual_computation(self, op: ir.Operation) -> None:
        """Its body is inlined: the body must take the operands' and return the results' local types, split as
        they are."""
        body = op.regions[0].blocks[0]
        ins = TensorShardingPerValue.from_attr(op.attributes["in_shardings"]).shardings
        outs = TensorShardingPerValue.from_attr(op.attributes["out_shardings"]).shardings
        pairs = [(value, argument, sharding) for value, argument, sharding in zip(op.operands, body.arguments, ins)]
        terminator = list(body.operations)[-1]
        pairs += [(result, value, sharding) for result, value, sharding in zip(op.results, terminator.operands, outs)]
        manual = _manual_axes(op)
        for outer, inner, sharding in pairs:
            outer_sharding = self.value_sharding(outer)
            if self.local_dims(outer_sharding) != self.local_dims(sharding):
                _refuse(op, "passing a value split otherwise than its in/out sharding says")
            if set(outer_sharding.unreduced if outer_sharding is not None else ()) != set(sharding.unreduced):
                _refuse(op, "passing a value partial along other axes than its in/out sharding says")
            inner_sharding = _without_axes(sharding, manual)
            if self.local_dims(self.value_sharding(inner)) != self.local_dims(inner_sharding):
                _refuse(op, "whose body passes a value split otherwise than its in/out sharding says")
            if self.local_type(outer.type, outer_sharding) != self.local_type(inner.type, inner_sharding):
                _refuse(op, "whose body's local types are not its operands' and results'")

    def check_carried(self, op: ir.Operation) -> None:
        """A loop's or conditional's values keep their split: its operands (a loop's initial values) are split as
        its results."""
        if op.name != "stablehlo.while":
            return
        for value, sharding in zip(op.operands, self.result_shardings(op)):
            if self.local_dims(self.value_sharding(value)) != self.local_dims(sharding):
                _refuse(op, "with an initial value split otherwise than the loop's value")

    def check_flow(self, op: ir.Operation) -> None:
        """Values that go on to a function's results (a return) or a callee's arguments (a call) must be split as
        those say: equal local shapes of different parts would pass unnoticed. So must the values a loop body or a
        branch returns."""
        if op.name == "stablehlo.return":
            parent = op.parent.operation
            in_cond = parent.name == "stablehlo.while" and op.block == parent.regions[0].blocks[0]
            if parent.name not in _CARRYING_REGION_OPS or in_cond:
                return
            for value, sharding in zip(op.operands, self.result_shardings(parent)):
                if self.local_dims(self.value_sharding(value)) != self.local_dims(sharding):
                    _refuse(op, "returning a value split otherwise than the loop's or branch's result")
            return
        if op.name == "func.return":
            func = op.parent.operation
            expected = _padded(result_shardings(func), len(op.operands))
            pairs = list(zip(op.operands, expected))
        elif op.name == "func.call":
            callee = self.callee(op)
            pairs = list(zip(op.operands, _padded(arg_shardings(callee), len(op.operands))))
            pairs += list(zip(op.results, _padded(result_shardings(callee), len(op.results))))
            if [self.local_dims(s) for s in self.result_shardings(op)] != [
                self.local_dims(s) for s in _padded(result_shardings(callee), len(op.results))
            ]:
                _refuse(op, "whose results are split otherwise than its callee's")
        else:
            return
        for value, sharding in pairs:
            if self.local_dims(self.value_sharding(value)) != self.local_dims(sharding):
                _refuse(op, "passing on a value split otherwise than where it goes")

    def reads_partial_values(self, all_reduce: ir.Operation) -> bool:
        """Whether the all-reduce's operand is partial along exactly its axes: marked unreduced on them, or the
        result of an op whose split reduction leaves it partial there (checked with that op)."""
        axes = finished_axes(all_reduce)
        value = all_reduce.operands[0]
        sharding = self.value_sharding(value)
        if sharding is not None and set(sharding.unreduced) == set(axes):
            return True
        if not isinstance(value, ir.OpResult) or not value.owner.name.startswith("stablehlo."):
            return False
        operands, results, known = self.op_shardings(value.owner)
        mesh = self.meshes.of(known) if known is not None else None
        return same_devices(split_reduction_axes(value.owner, operands, results, mesh), axes)

    def op_shardings(self, op: ir.Operation) -> tuple[list, list, Optional[TensorSharding]]:
        """An op's operand and result shardings, and the first of them it has (None without any)."""
        operands = [self.value_sharding(value) for value in op.operands]
        results = self.result_shardings(op)
        return operands, results, next((s for s in operands + results if s is not None), None)

    def callee(self, call: ir.Operation) -> ir.Operation:
        name = ir.FlatSymbolRefAttr(call.attributes["callee"]).value
        return next(op for op in self.ops if op.name == "func.func" and _symbol(op) == name)

    def local_dims(self, sharding: Optional[TensorSharding]) -> tuple:
        """What decides a value's local part: the axes of each dimension split on more than one device; empty where
        nothing is split."""
        if sharding is None:
            return ()
        mesh = self.meshes.of(sharding)
        dims = tuple(tuple(a for a in dim.axes if a.size(mesh) > 1) for dim in sharding.dims)
        return dims if any(dims) else ()

    def value_sharding(self, value: ir.Value) -> Optional[TensorSharding]:
        if isinstance(value, ir.BlockArgument):
            owner = value.owner.owner.operation
            if owner.name == "func.func":
                return _padded(arg_shardings(owner), value.arg_number + 1)[value.arg_number]
            if owner.name == "sdy.manual_computation":
                ins = TensorShardingPerValue.from_attr(owner.attributes["in_shardings"]).shardings
                return _without_axes(ins[value.arg_number], _manual_axes(owner))
            if owner.name == "stablehlo.while":  # both regions take the loop's values
                return self.result_shardings(owner)[value.arg_number]
            return None
        return self.result_shardings(value.owner)[value.result_number]

    # ------------------------------------------------------------------
    # Converting
    # ------------------------------------------------------------------

    def run(self) -> None:
        for op in self.ops:
            self.check(op)
        if versions.installed().convert_global_to_local_records_main_shardings:
            self.record_main_shardings()
        channel = max([_channel(op) for op in self.ops] + [0]) + 1
        self.collectives = CollectiveBuilder(channel, self.options.enable_rgv3)
        manual_computations = [op for op in self.ops if op.name == "sdy.manual_computation"]
        # Read before converting replaces the ops that make them: the shardings of ops the C++ rewrites.
        operand_shardings = [
            [self.value_sharding(value) for value in op.operands] if _reads_operand_shardings(op) else None
            for op in self.ops
        ]
        rewritten = [
            op.name in _COLLECTIVES or (op.name in _REWRITTEN and self.names_axes(op)) for op in self.ops
        ]
        unfinished = [self.unfinished(op) for op in self.ops]
        partial = [self.partial_axes(op) if op.name == "stablehlo.scatter" else [] for op in self.ops]
        made = [self.made_partial(op) for op in self.ops]
        steps = zip(self.ops, operand_shardings, rewritten, unfinished, partial, made)
        for op, shardings, rewrite, finishing, axes, made_partial in steps:
            last = self.convert(op, shardings, rewrite, axes)
            if finishing is not None:
                axes, sharding = finishing
                finish_partial_results(last, axes, self.meshes.of(sharding), _mesh_or_ref(sharding), self.collectives)
            for index, sharding in made_partial:
                result = last.results[index]
                with ir.InsertionPoint.after(last), last.location:
                    mesh = self.meshes.of(sharding)
                    kept = replicated_to_unreduced(result, sharding.unreduced, mesh, self.replicas)
                result.replace_all_uses_except(kept, kept.owner.operation)
        for op in reversed(manual_computations):  # inner ones first
            inline_manual_computation(op)

    def record_main_shardings(self) -> None:
        main = next((op for op in self.ops if op.name == "func.func" and _symbol(op) == "main"), None)
        if main is None:
            return
        types = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        meshes = list(self.meshes.meshes.values())
        # An unsharded result is recorded with the sharding of the value returned, where that has one.
        returned = list(list(main.regions[0].blocks[0].operations)[-1].operands)
        results = [
            sharding or self.value_sharding(value)
            for sharding, value in zip(_padded(result_shardings(main), len(returned)), returned)
        ]
        for name, shardings, types_ in zip(
            MAIN_SHARDING_RECORDS, (arg_shardings(main), results), (types.inputs, types.results)
        ):
            recorded = []
            for sharding, type_ in zip(_padded(shardings, len(types_)), types_):
                if sharding is None:
                    # Fully replicated on the module's one mesh, or on a mesh without axes where none is a symbol.
                    if len(meshes) > 1:
                        _refuse(main, "with an unsharded argument or result of @main and several meshes to record it on")
                    sharding = TensorSharding.fully_closed(meshes[0] if meshes else Mesh(()), type_rank(type_))
                recorded.append(dataclasses.replace(sharding, mesh=self.meshes.of(sharding)))
            self.module.attributes[name] = TensorShardingPerValue(tuple(recorded)).to_attr()

    def convert(
        self, op: ir.Operation, operand_shardings: Optional[list], rewrite: bool, partial_axes: list
    ) -> Optional[ir.Operation]:
        """`operand_shardings`: those of the ops that read them to convert, and `partial_axes`: a scatter's
        (`partial_axes`), both taken before any op was converted. Returns the op whose results the op's users now
        read: the op itself, or where a rewrite masks them, the mask's select."""
        name = op.name
        if name == "func.func":
            self.convert_func(op)
        elif name == "sdy.constant":
            return self.convert_constant(op)
        elif rewrite:
            with ir.InsertionPoint(op), op.location:
                if name in _COLLECTIVES:
                    result = self.convert_collective(op, operand_shardings[0] if operand_shardings else None)
                else:
                    result = self.rewrite(op)
            op.results[0].replace_all_uses_with(result)
            op.erase()
        elif name != "sdy.mesh":
            if name in ("stablehlo.while", "sdy.manual_computation"):  # a manual computation is inlined at the end
                for region in op.regions:
                    self.retype_arguments(region.blocks[0])
            for result, sharding in zip(op.results, self.result_shardings(op)):
                result.set_type(self.local_type(result.type, sharding))
            if name == "stablehlo.gather":
                moved = indexed_split_dims(op, operand_shardings[0])
                _localize_slice_sizes(op)
                if moved:
                    mesh = self.meshes.of(operand_shardings[0])
                    return localize_gather(op, operand_shardings[0], moved, mesh, self.replicas).owner
            if name == "stablehlo.scatter" and (partial_axes or indexed_split_dims(op, operand_shardings[0])):
                mesh = self.meshes.of(next(s for s in operand_shardings if s is not None))
                reduction = body_reduction(op.regions[0]) if partial_axes else None
                localize_scatter(op, operand_shardings[0], partial_axes, reduction, mesh, self.replicas)
            if name == "stablehlo.pad" and operand_shardings is not None and _names_axes(operand_shardings[:1]):
                keep_only_attributes(op, _PAD_ATTRIBUTES)  # made anew by the C++ where its operand is split
            if name == "stablehlo.convolution" and _names_axes(operand_shardings + self.result_shardings(op)):
                self.localize_convolution(op, operand_shardings)
        return op

    def convert_func(self, func: ir.Operation) -> None:
        types = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        inputs = [self.local_type(t, s) for t, s in zip(types.inputs, _padded(arg_shardings(func), len(types.inputs)))]
        results = [
            self.local_type(t, s) for t, s in zip(types.results, _padded(result_shardings(func), len(types.results)))
        ]
        func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, results))
        if func.regions[0].blocks:
            for argument, type_ in zip(func.regions[0].blocks[0].arguments, inputs):
                argument.set_type(type_)

    def convert_reduce_scatter(self, op: ir.Operation, operand: TensorSharding) -> ir.Value:
        """With the mesh of its operand's sharding, as the C++ takes it."""
        mesh = self.meshes.of(operand)
        mesh_or_ref = _mesh_or_ref(operand)
        local = self.local_type(op.results[0].type, TensorSharding.from_attr(op.attributes["out_sharding"]))
        axes_per_dim = axis_lists(op, "reduce_scatter_axes")
        scattered = [dim for dim, axes in enumerate(axes_per_dim) if axes]
        value, kind = op.operands[0], reduction(op)
        if len(scattered) == 1:
            return self.collectives.reduce_scatter(
                value, scattered[0], axes_per_dim[scattered[0]], kind, local, mesh, mesh_or_ref
            )
        all_axes = [axis for axes in axes_per_dim for axis in axes]
        reduced = self.collectives.all_reduce(value, all_axes, kind, mesh, mesh_or_ref)
        return dynamic_slice(reduced, axes_per_dim, local, mesh)

    def unfinished(self, op: ir.Operation) -> Optional[tuple[list, TensorSharding]]:
        """The axes along which the pass finishes `op`'s partial results (finish_partial_results.py), with the
        sharding whose mesh they are on; read before converting changes the op's users."""
        operands, results, known = self.op_shardings(op)
        if known is None:
            return None
        axes = unfinished_reduction_axes(op, operands, results, self.meshes.of(known))
        return (axes, known) if axes else None

    def made_partial(self, op: ir.Operation) -> list[tuple[int, TensorSharding]]:
        """The results (index, sharding) of a constant or StableHLO op that are marked partial sums along axes no
        operand and no split reduction of the op makes them partial on: whole values, which the pass keeps on the
        first device of each group along those axes (zeros on the others), as XLA's own route does. (Partial maxima or
        minima may stay whole on every device.)"""
        if op.name != "sdy.constant" and not op.name.startswith("stablehlo.") or op.name in _CARRYING_REGION_OPS:
            return []  # (a loop's or branch's results are what its regions return, partial values among them)
        operands, results, _ = self.op_shardings(op)
        made = [
            (index, sharding)
            for index, sharding in enumerate(results)
            if sharding is not None and sharding.unreduced and sharding.reduction == "sum"
        ]
        if not made or any(s is not None and s.unreduced for s in operands) or self.partial_axes(op):
            return []
        return made

    def partial_axes(self, op: ir.Operation) -> list[AxisRef]:
        """The axes along which `op`'s results are partial (its split reduction factors')."""
        operands, results, known = self.op_shardings(op)
        return split_reduction_axes(op, operands, results, self.meshes.of(known)) if known is not None else []

    @property
    def several_devices(self) -> bool:
        """Whether a mesh of the module spans more than one device."""
        return any(mesh.total_size > 1 for mesh in self.meshes.meshes.values())

    @property
    def replicas(self) -> bool:
        """Whether the devices are replicas, told apart by replica id."""
        return self.options.replica_count > 1

    def localize_convolution(self, conv: ir.Operation, operand_shardings: list) -> None:
        """As the C++ makes it anew: its group counts divided by the splits of the dimensions they group, and no
        attribute but a convolution's own."""
        numbers = stablehlo.ConvDimensionNumbers(conv.attributes["dimension_numbers"])
        lhs, rhs = operand_shardings
        for name, sharding, dim in (
            ("feature_group_count", rhs, numbers.kernel_output_feature_dimension),
            ("batch_group_count", lhs, numbers.input_batch_dimension),
        ):
            count = ir.IntegerAttr(conv.attributes[name]).value
            axes = sharding.dims[dim].axes if sharding is not None and sharding.dims else ()
            if count > 1 and axes:
                count //= min(count, math.prod(axis.size(self.meshes.of(sharding)) for axis in axes))
            conv.attributes[name] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), count)
        keep_only_attributes(conv, _CONVOLUTION_ATTRIBUTES)

    def names_axes(self, op: ir.Operation) -> bool:
        """Whether a sharding of the op's operands or results names any axis (the C++ then rewrites iotas and
        slices, else keeps them)."""
        return _names_axes([self.value_sharding(value) for value in op.operands] + self.result_shardings(op))

    def rewrite(self, op: ir.Operation) -> ir.Value:
        sharding = self.result_shardings(op)[0]
        local = self.local_type(op.results[0].type, sharding)
        if op.name == "stablehlo.iota":
            return local_iota(op, local, sharding, self.meshes.of(sharding), self.replicas)
        if op.name == "stablehlo.dynamic_slice":
            return local_dynamic_slice(op, local)
        split = _axes_per_dim(sharding, type_rank(local))
        return local_slice(op, local, {dim for dim, axes in enumerate(split) if axes})

    def retype_arguments(self, block: ir.Block) -> None:
        for argument in block.arguments:
            argument.set_type(self.local_type(argument.type, self.value_sharding(argument)))

    def convert_constant(self, op: ir.Operation) -> ir.Operation:
        local = self.local_type(op.results[0].type, self.result_shardings(op)[0])
        if local != op.results[0].type:  # one repeated value (check): the same value in the local shape
            op.attributes["value"] = ir.DenseElementsAttr.get_splat(
                local, ir.DenseElementsAttr(op.attributes["value"]).get_splat_value()
            )
            op.results[0].set_type(local)
        keep_only_attributes(op, frozenset({"value"}))  # the C++ makes a constant of its value alone
        return replace_constant(op, "stablehlo.constant")

    def convert_collective(self, op: ir.Operation, operand_sharding: Optional[TensorSharding]) -> ir.Value:
        out = TensorSharding.from_attr(op.attributes["out_sharding"])
        mesh = self.meshes.of(out)
        mesh_or_ref = _mesh_or_ref(out)
        value = op.operands[0]
        build = self.collectives
        if op.name == "sdy.all_reduce":
            return build.all_reduce(value, axis_list(op, "reduction_axes"), reduction(op), mesh, mesh_or_ref)
        if op.name == "sdy.replicated_to_unreduced":
            return replicated_to_unreduced(value, axis_list(op, "axes"), mesh)
        if op.name == "sdy.all_gather":
            axes = axis_lists(op, "gathering_axes")
            return build.all_gather(value, axes, self.options.per_dim_all_gather, mesh, mesh_or_ref)
        if op.name == "sdy.all_slice":
            local = self.local_type(op.results[0].type, out)
            return dynamic_slice(value, axis_lists(op, "slicing_axes"), local, mesh)
        if op.name == "sdy.reduce_scatter":
            return self.convert_reduce_scatter(op, operand_sharding)
        if op.name == "sdy.all_to_all":
            ((source, axes, target),) = all_to_all_params(op)
            return build.all_to_all(value, axes, source, target, mesh, mesh_or_ref)
        return build.collective_permute(value, permutation_pairs(operand_sharding, out, mesh))


class _NotDivisible(Exception):
    def __init__(self, size: int, count: int):
        self.size = size
        self.count = count


def _localize_slice_sizes(gather: ir.Operation) -> None:
    """A gather's slice sizes along the operand dimensions it takes whole (checked), those of its local operand."""
    numbers = stablehlo.GatherDimensionNumbers(gather.attributes["dimension_numbers"])
    local = gather.operands[0].type.shape
    sizes = [
        size if size == 1 or dim in numbers.operand_batching_dims else min(size, local[dim])
        for dim, size in enumerate(ir.DenseI64ArrayAttr(gather.attributes["slice_sizes"]))
    ]
    gather.attributes["slice_sizes"] = ir.DenseI64ArrayAttr.get(sizes)


def _mesh_or_ref(sharding: TensorSharding) -> ir.Attribute:
    return ir.FlatSymbolRefAttr.get(sharding.mesh) if isinstance(sharding.mesh, str) else sharding.mesh.to_attr()


def _reads_operand_shardings(op: ir.Operation) -> bool:
    return op.name in _READS_OPERAND_SHARDINGS


def _is_update_batch_dim(dim: int, numbers, updates: Optional[TensorSharding]) -> bool:
    """Whether update dimension `dim`, a scatter dimension, is one the operand batches over too (its index in the
    scatter dimensions is one of the indices' batching dimensions, counted without the index vector dimension)."""
    scatter_dims = [d for d in range(len(updates.dims)) if d not in set(numbers.update_window_dims)]
    position = scatter_dims.index(dim)
    batching = sorted(numbers.scatter_indices_batching_dims)
    index_vector = numbers.index_vector_dim
    indices_dims = [d for d in range(len(scatter_dims) + 1) if d != index_vector]
    return position < len(indices_dims) and indices_dims[position] in batching


def _has_side_effects(op: ir.Operation) -> bool:
    """A host callback that logs or writes, an outfeed, a send: what a program does once, not per device."""
    if op.name == "stablehlo.custom_call":
        return "has_side_effect" in op.attributes and ir.BoolAttr(op.attributes["has_side_effect"]).value
    return op.name in ("stablehlo.outfeed", "stablehlo.send")


def _is_number(type_: ir.RankedTensorType) -> bool:
    """Whether the elements are integers (not booleans) or real floats, whose zeros and identities the rewrites
    write."""
    element = type_.element_type
    if isinstance(element, ir.IntegerType):
        return element.width > 1
    return isinstance(element, ir.FloatType) and all(identity_refusal(element, kind) is None for kind in ("sum", "max"))


def _names_axes(shardings: list) -> bool:
    return any(dim.axes for sharding in shardings if sharding is not None for dim in sharding.dims)


def _i64s(op: ir.Operation, name: str, default: list[int]) -> list[int]:
    return list(ir.DenseI64ArrayAttr(op.attributes[name])) if name in op.attributes else default


def _padding_pairs(op: ir.Operation, rank: int) -> list[tuple[int, int]]:
    if "padding" not in op.attributes:
        return [(0, 0)] * rank
    flat = [int(v) for v in ir.DenseIntElementsAttr(op.attributes["padding"])]
    return [(flat[2 * dim], flat[2 * dim + 1]) for dim in range(rank)]


def _manual_axes(manual: ir.Operation) -> frozenset[str]:
    return frozenset(ManualAxes.from_attr(manual.attributes["manual_axes"]).axes)


def _without_axes(sharding: TensorSharding, names: frozenset[str]) -> TensorSharding:
    dims = tuple(
        dataclasses.replace(dim, axes=tuple(axis for axis in dim.axes if axis.name not in names))
        for dim in sharding.dims
    )
    return dataclasses.replace(sharding, dims=dims)


def _axes_per_dim(sharding: Optional[TensorSharding], rank: int) -> list[tuple]:
    return [dim.axes for dim in sharding.dims] if sharding is not None and sharding.dims else [()] * rank


def _padded(shardings: list, count: int) -> list:
    return list(shardings) + [None] * (count - len(shardings))


def _symbol(op: ir.Operation) -> str:
    return ir.StringAttr(op.attributes["sym_name"]).value


def _channel(op: ir.Operation) -> int:
    if "channel_handle" not in op.attributes:
        return 0
    return stablehlo.ChannelHandle(op.attributes["channel_handle"]).handle


def _is_splat(constant: ir.Operation) -> bool:
    """Whether a constant's value is one repeated value that the bindings can read (not complex)."""
    try:
        return ir.DenseElementsAttr(constant.attributes["value"]).is_splat
    except TypeError:
        return False


def _zero_padded(pad: ir.Operation) -> bool:
    value = pad.operands[1]
    if not isinstance(value, ir.OpResult) or value.owner.name not in ("stablehlo.constant", "sdy.constant"):
        return False
    if not _is_splat(value.owner):
        return False
    splat = ir.DenseElementsAttr(value.owner.attributes["value"]).get_splat_value()
    if isinstance(splat, ir.FloatAttr):
        return splat.value == 0.0
    if isinstance(splat, ir.IntegerAttr):
        return splat.value == 0
    return False
