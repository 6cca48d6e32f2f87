"""`xla-sdy-stablehlo-export-shardings`: every `sdy.sharding` becomes XLA's `mhlo.sharding` text, and the meshes go
(except those a collective's `replica_groups` names: XLA's export keeps them for its HLO translation, which reads
the mesh and its device order from there)."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.hlo_sharding import HloSharding
from pysdy.dialects.sdy import ManualAxes, Mesh, TensorSharding, TensorShardingPerValue
from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.replica_group_meshes import replica_group_meshes
from pysdy.passes.export.update_non_divisible_input_output_shardings import meshes_of
from pysdy.passes.gspmd.sdy_to_hlo_sharding import to_hlo_sharding
from pysdy.passes.registry import MODULE, Pass, PassFailure, option, register_pass

SHARDING = "sdy.sharding"
HLO_SHARDING = "mhlo.sharding"
# The manual axes a value's sharding is read with, left on ops and func arguments/results by the
# shard-map export for this pass.
MANUAL_AXES = "xla.sdy.manual_axes"
CONTROL_FLOW = ("stablehlo.while", "stablehlo.case", "stablehlo.if")
# Custom calls standing for ops StableHLO lacks; their sharding travels inside `mhlo.attributes`.
MHLO_ATTRIBUTES = "mhlo.attributes"
MHLO_OP_CUSTOM_CALLS = ("mhlo.erf", "mhlo.topk")


class _Converter:
    """Converts shardings on the module's meshes, reporting bad ones as errors on an op."""

    def __init__(self, meshes: dict[str, Mesh]):
        self.meshes = meshes

    def mesh(self, sharding: TensorSharding, location: ir.Location) -> Mesh:
        if isinstance(sharding.mesh, Mesh):
            return sharding.mesh
        mesh = self.meshes.get(sharding.mesh)
        if mesh is None:
            location.emit_error(f"unknown mesh: @{sharding.mesh}")
            raise PassFailure()
        return mesh

    def convert(self, sharding: TensorSharding, manual_axes: tuple[str, ...], location: ir.Location) -> HloSharding:
        try:
            return to_hlo_sharding(sharding, self.mesh(sharding, location), manual_axes)
        except ValueError as error:
            location.emit_error(f"cannot export sharding {sharding.to_attr()} to an HloSharding: {error}")
            raise PassFailure() from error

    def op_sharding(self, op: ir.Operation, shardings: tuple[TensorSharding, ...], manual_axes: tuple[str, ...]) -> HloSharding:
        """One sharding for a single result (or a no-result op on a maximal or replicated sharding), else a tuple."""
        results = len(op.results)
        if results == 0 and len(shardings) == 1:
            sharding = shardings[0]
            mesh = self.mesh(sharding, op.location)
            if mesh.is_maximal or _is_fully_replicated(sharding):
                return self.convert(sharding, manual_axes, op.location)
        if len(shardings) != results:
            op.location.emit_error(f"has {len(shardings)} shardings for {results} results")
            raise PassFailure()
        if results == 1:
            return self.convert(shardings[0], manual_axes, op.location)
        return HloSharding.tuple_of([self.convert(s, manual_axes, op.location) for s in shardings])


def _is_fully_replicated(sharding: TensorSharding) -> bool:
    return all(not dim.axes for dim in sharding.dims)


def _manual_axes(attr: ir.Attribute | None) -> tuple[str, ...]:
    return () if attr is None else ManualAxes.from_attr(attr).axes


def _text(sharding: HloSharding) -> ir.Attribute:
    return ir.StringAttr.get(sharding.to_text())


def _export_func_values(func: ir.Operation, converter: _Converter, results: bool) -> None:
    get = func_attrs.get_result_attr if results else func_attrs.get_arg_attr
    set_all = func_attrs.set_result_attrs if results else func_attrs.set_arg_attrs
    count = func_attrs.num_results(func) if results else func_attrs.num_arguments(func)
    exported: dict[int, ir.Attribute] = {}
    for index in range(count):
        attr = get(func, index)
        if attr is None:
            continue
        manual_axes = _manual_axes(get(func, index, MANUAL_AXES))
        exported[index] = _text(converter.convert(TensorSharding.from_attr(attr), manual_axes, func.location))
    if not exported:
        return
    set_all(func, {index: None for index in exported}, MANUAL_AXES)
    set_all(func, exported, HLO_SHARDING)
    set_all(func, {index: None for index in exported}, SHARDING)


def _export_op(op: ir.Operation, converter: _Converter, add_missing_sharding_to_control_flow: bool) -> None:
    manual_axes = ()
    if MANUAL_AXES in op.attributes:
        manual_axes = _manual_axes(op.attributes[MANUAL_AXES])
        del op.attributes[MANUAL_AXES]
    if SHARDING in op.attributes:
        shardings = TensorShardingPerValue.from_attr(op.attributes[SHARDING]).shardings
        if shardings:
            op.attributes[HLO_SHARDING] = _text(converter.op_sharding(op, shardings, manual_axes))
            del op.attributes[SHARDING]
            return
    if add_missing_sharding_to_control_flow and op.name in CONTROL_FLOW:
        op.attributes[HLO_SHARDING] = _text(HloSharding.replicated())


def _move_sharding_into_mhlo_attributes(custom_call: ir.Operation) -> None:
    if HLO_SHARDING not in custom_call.attributes:
        return
    entries = {}
    if MHLO_ATTRIBUTES in custom_call.attributes:
        entries = {named.name: named.attr for named in ir.DictAttr(custom_call.attributes[MHLO_ATTRIBUTES])}
    entries[HLO_SHARDING] = custom_call.attributes[HLO_SHARDING]
    del custom_call.attributes[HLO_SHARDING]
    custom_call.attributes[MHLO_ATTRIBUTES] = ir.DictAttr.get(entries)


@register_pass
@dataclasses.dataclass(frozen=True)
class ExportStablehloShardingsPass(Pass):
    argument = "xla-sdy-stablehlo-export-shardings"
    summary = "Converts the shardings from kShardingAttr to kXlaShardingAttr and removes mesh symbols."
    anchor = MODULE

    add_missing_sharding_to_control_flow: bool = option(
        False, "Whether to add a sharding to a control flow op without one."
    )

    def run(self, op: ir.Operation) -> None:
        converter = _Converter(meshes_of(op))
        module_ops = [child.operation for child in op.regions[0].blocks[0].operations]
        for func in module_ops:
            if func.name != "func.func":
                continue
            _export_func_values(func, converter, results=False)
            _export_func_values(func, converter, results=True)
            blocks = func.regions[0].blocks
            for child in blocks[0].operations if len(blocks) else ():
                for nested in nested_ops(child.operation):
                    _export_op(nested, converter, self.add_missing_sharding_to_control_flow)
        for custom_call in nested_ops(op, name="stablehlo.custom_call"):
            target = ir.StringAttr(custom_call.attributes["call_target_name"]).value
            if target in MHLO_OP_CUSTOM_CALLS:
                _move_sharding_into_mhlo_attributes(custom_call)
        kept = {reference.symbol for reference in replica_group_meshes(op)}
        for mesh in module_ops:
            if mesh.name == "sdy.mesh" and ir.StringAttr(mesh.attributes["sym_name"]).value not in kept:
                mesh.erase()
