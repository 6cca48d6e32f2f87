"""`xla-sdy-stablehlo-round-trip-shard-map-export`: each `sdy.manual_computation` as the full-to-shard / call / shard-to-full pattern XLA's partitioner knows.

Each operand gets a sharding constraint with its in-sharding and an
`@SPMDFullToShardShape` custom call; the body becomes a private function
`xla.sdy.inlinable_manual_computation_body` (uniqued) that a `func.call`
calls; each result gets a sharding constraint and an `@SPMDShardToFullShape`.
Every op in a body, and every function a body calls, is marked with the axes
that are manual there (`xla.sdy.manual_axes`, read by the sharding export) and
given fully closed shardings where it has none.
"""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import ManualAxes, MeshOrRef, TensorSharding, TensorShardingPerValue
from pysdy.passes.common import func_attrs
from pysdy.passes.common.manual_axes import erase_manual_axes, manual_axes_of
from pysdy.passes.common.values import type_rank
from pysdy.passes.export.export_named_computations import SymbolNames
from pysdy.passes.gspmd.export_ops import sharding_constraint
from pysdy.passes.gspmd.export_shardings import MANUAL_AXES, SHARDING
from pysdy.passes.registry import MODULE, Pass, option, register_pass

MANUAL_COMPUTATION = "sdy.manual_computation"
BODY_FUNC_NAME = "xla.sdy.inlinable_manual_computation_body"
FULL_TO_SHARD = "SPMDFullToShardShape"
SHARD_TO_FULL = "SPMDShardToFullShape"


def _first_sharding(manual_computation: ir.Operation) -> TensorSharding | None:
    for name in ("in_shardings", "out_shardings"):
        shardings = TensorShardingPerValue.from_attr(manual_computation.attributes[name]).shardings
        if shardings:
            return shardings[0]
    return None


def _shardings(op: ir.Operation, name: str) -> tuple[TensorSharding, ...]:
    return TensorShardingPerValue.from_attr(op.attributes[name]).shardings


def _set_shardings(op: ir.Operation, shardings: list[TensorSharding]) -> None:
    if shardings:
        op.attributes[SHARDING] = TensorShardingPerValue(tuple(shardings)).to_attr()


def _set_manual_axes(op: ir.Operation, axes: tuple[str, ...]) -> None:
    if axes:
        op.attributes[MANUAL_AXES] = ManualAxes(axes).to_attr()


def _is_terminator(op: ir.Operation) -> bool:
    """The last op of its block, which in the regions of these ops is always the terminator."""
    block = op.block
    return list(block.operations)[-1].operation == op


class _ManualAxesMarker:
    """Marks the ops of a manual computation's body (and the functions they call) with the region's manual axes."""

    def __init__(self, module: ir.Operation, axes: tuple[str, ...], mesh: MeshOrRef):
        self.funcs = {
            ir.StringAttr(child.attributes["sym_name"]).value: child.operation
            for child in module.regions[0].blocks[0].operations
            if child.operation.name == "func.func"
        }
        self.axes = axes
        self.axes_attr = ManualAxes(axes).to_attr()
        self.mesh = mesh

    def mark_block(self, block: ir.Block) -> None:
        for child in block.operations:
            self.mark(child.operation)

    def mark(self, op: ir.Operation) -> None:
        if op.name == MANUAL_COMPUTATION:
            return  # marked with its own axes
        if op.name not in ("func.func", "func.return"):
            self._mark_op(op)
        if op.name == "func.call":
            self._mark_func(self.funcs[ir.FlatSymbolRefAttr(op.attributes["callee"]).value])
        for region in op.regions:
            for block in region.blocks:
                self.mark_block(block)

    def _mark_op(self, op: ir.Operation) -> None:
        if SHARDING in op.attributes and any(s.mesh != self.mesh for s in _shardings(op, SHARDING)):
            del op.attributes[SHARDING]  # a maximal or empty mesh: the op becomes manual like the rest
        if SHARDING not in op.attributes:
            shardings = [TensorSharding.fully_closed(self.mesh, type_rank(r.type)) for r in op.results]
            if not shardings and not _is_terminator(op):
                shardings = [TensorSharding.fully_closed(self.mesh, 0)]
            _set_shardings(op, shardings)
        op.attributes[MANUAL_AXES] = self.axes_attr

    def _mark_func(self, func: ir.Operation) -> None:
        for get, set_all, types in (
            (func_attrs.get_arg_attr, func_attrs.set_arg_attrs, func_attrs.function_type(func).inputs),
            (func_attrs.get_result_attr, func_attrs.set_result_attrs, func_attrs.function_type(func).results),
        ):
            missing = {
                index: TensorSharding.fully_closed(self.mesh, type_rank(type_)).to_attr()
                for index, type_ in enumerate(types)
                if get(func, index) is None
            }
            set_all(func, missing)
            set_all(func, {index: self.axes_attr for index in range(len(types))}, MANUAL_AXES)
        self.mark_block(func.regions[0].blocks[0])


class _Exporter:
    def __init__(self, module: ir.Operation, as_custom_calls: bool):
        self.module = module
        self.names = SymbolNames(module)
        self.as_custom_calls = as_custom_calls

    def constraint(self, value: ir.Value, sharding: TensorSharding, axes: tuple[str, ...]) -> ir.Value:
        op = sharding_constraint(value, sharding, self.as_custom_calls)
        _set_manual_axes(op, axes)
        return op.results[0]

    @staticmethod
    def reshape(target: str, value: ir.Value, type_: ir.Type, sharding: TensorSharding, axes: tuple[str, ...]) -> ir.Value:
        op = ir.Operation.create(
            "stablehlo.custom_call",
            results=[type_],
            operands=[value],
            attributes={
                "call_target_name": ir.StringAttr.get(target),
                SHARDING: TensorShardingPerValue((sharding,)).to_attr(),
            },
        )
        _set_manual_axes(op, axes)
        return op.results[0]

    def export(self, op: ir.Operation, parent_axes: tuple[str, ...]) -> None:
        body = op.regions[0].blocks[0]
        terminator = list(body.operations)[-1].operation
        if _first_sharding(op) is None:
            self._inline(op, body, terminator)
            return
        region_axes = parent_axes + manual_axes_of(op)
        in_shardings = _shardings(op, "in_shardings")
        out_shardings = _shardings(op, "out_shardings")

        local_operands = []
        with ir.InsertionPoint(op), op.location:
            for operand, argument, sharding in zip(op.operands, body.arguments, in_shardings):
                if not isinstance(argument.type, ir.ShapedType):
                    local_operands.append(operand)
                    continue
                constrained = self.constraint(operand, sharding, parent_axes)
                local = erase_manual_axes(sharding, region_axes)
                local_operands.append(self.reshape(FULL_TO_SHARD, constrained, argument.type, local, region_axes))

        result_types = [value.type for value in terminator.operands]
        func = self._outline(op, body, terminator, result_types)
        func_attrs.set_arg_attrs(func, {i: erase_manual_axes(s, region_axes).to_attr() for i, s in enumerate(in_shardings)})
        func_attrs.set_result_attrs(func, {i: erase_manual_axes(s, region_axes).to_attr() for i, s in enumerate(out_shardings)})
        if region_axes:
            axes_attr = ManualAxes(region_axes).to_attr()
            func_attrs.set_arg_attrs(func, {i: axes_attr for i in range(len(in_shardings))}, MANUAL_AXES)
            func_attrs.set_result_attrs(func, {i: axes_attr for i in range(len(out_shardings))}, MANUAL_AXES)

        with ir.InsertionPoint.after(op), op.location:
            call = ir.Operation.create(
                "func.call",
                results=result_types,
                operands=local_operands,
                attributes={"callee": ir.FlatSymbolRefAttr.get(ir.StringAttr(func.attributes["sym_name"]).value)},
            )
            _set_manual_axes(call, region_axes)
        local_out_shardings = [erase_manual_axes(s, region_axes) for s in out_shardings]
        insertion_point = ir.InsertionPoint.after(call)
        for local, result, sharding, local_sharding in zip(call.results, op.results, out_shardings, local_out_shardings):
            if not isinstance(result.type, ir.ShapedType):
                result.replace_all_uses_with(local)
                continue
            with insertion_point, op.location:
                constrained = self.constraint(local, local_sharding, region_axes)
                full = self.reshape(SHARD_TO_FULL, constrained, result.type, sharding, parent_axes)
            result.replace_all_uses_with(full)
        _set_shardings(call, local_out_shardings)
        op.erase()

    def _outline(self, op: ir.Operation, body: ir.Block, terminator: ir.Operation, result_types: list[ir.Type]) -> ir.Operation:
        function_type = ir.FunctionType.get([a.type for a in body.arguments], result_types)
        with ir.InsertionPoint(self.module.regions[0].blocks[0]), op.location:
            func = ir.Operation.create(
                "func.func",
                attributes={
                    "sym_name": ir.StringAttr.get(self.names.claim(BODY_FUNC_NAME)),
                    "function_type": ir.TypeAttr.get(function_type),
                    "sym_visibility": ir.StringAttr.get("private"),
                },
                regions=1,
            )
        body.append_to(func.regions[0])
        with ir.InsertionPoint(terminator), terminator.location:
            ir.Operation.create("func.return", operands=list(terminator.operands))
        terminator.erase()
        return func

    @staticmethod
    def _inline(op: ir.Operation, body: ir.Block, terminator: ir.Operation) -> None:
        """A manual computation without shardings has no manual axes: its body replaces it."""
        for argument, operand in zip(body.arguments, op.operands):
            argument.replace_all_uses_with(operand)
        for result, value in zip(op.results, terminator.operands):
            result.replace_all_uses_with(value)
        terminator.erase()
        for child in list(body.operations):
            child.operation.move_before(op)
        op.erase()


@register_pass
@dataclasses.dataclass(frozen=True)
class StablehloRoundTripShardMapExportPass(Pass):
    argument = "xla-sdy-stablehlo-round-trip-shard-map-export"
    summary = "Replaces sdy::ManualComputationOp with the pattern that XLA recognizes."
    anchor = MODULE

    create_hlo_sharding_constraints: bool = option(
        False, "Whether to create @Sharding custom calls or MHLO copy ops."
    )

    def run(self, op: ir.Operation) -> None:
        found: list[tuple[ir.Operation, tuple[str, ...]]] = []
        _mark_manual_computations(op, op.regions[0].blocks[0], (), found)
        exporter = _Exporter(op, self.create_hlo_sharding_constraints)
        for manual_computation, parent_axes in found:
            exporter.export(manual_computation, parent_axes)


def _mark_manual_computations(
    module: ir.Operation, block: ir.Block, parent_axes: tuple[str, ...], found: list[tuple[ir.Operation, tuple[str, ...]]]
) -> None:
    """Marks the body of every manual computation in `block` (outer ones first) and lists them inner ones
    first, in MLIR's post-order, each with the manual axes of the manual computations around it."""
    for child in block.operations:
        op = child.operation
        axes = parent_axes
        if op.name == MANUAL_COMPUTATION:
            axes = parent_axes + manual_axes_of(op)
            sharding = _first_sharding(op)
            if sharding is not None and axes:
                _ManualAxesMarker(module, axes, sharding.mesh).mark_block(op.regions[0].blocks[0])
        for region in op.regions:
            for nested in region.blocks:
                _mark_manual_computations(module, nested, axes, found)
        if op.name == MANUAL_COMPUTATION:
            found.append((op, parent_axes))
