"""`xla-sdy-export-ops`: sdy's remaining ops as the StableHLO / MHLO ops XLA's HLO conversion understands (jaxlib
0.12's XLA drops a reshard between one device and all: from a maximal sharding to a replicated one, or back)."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import Mesh, TensorSharding, TensorShardingPerValue
from pysdy.passes.common.ir_walk import nested_ops_named
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.export.update_non_divisible_input_output_shardings import meshes_of
from pysdy.passes.registry import MODULE, Pass, option, register_pass

SHARDING_CUSTOM_CALL = "Sharding"
# Ops that only move data between shardings: each becomes a copy carrying the sharding it produces.
_COLLECTIVES = (
    "sdy.all_gather",
    "sdy.all_slice",
    "sdy.all_to_all",
    "sdy.collective_permute",
    "sdy.reduce_scatter",
)
_CONSTRAINTS = ("sdy.sharding_constraint", "sdy.reshard")
# Ops that leave the data as it is: their input takes their place.
_PASS_THROUGH = ("sdy.all_reduce", "sdy.propagation_barrier")
_CONSTANT = "sdy.constant"


def sharding_constraint(value: ir.Value, sharding: TensorSharding, as_custom_call: bool) -> ir.Operation:
    """A `@Sharding` custom call or an `mhlo.copy` of `value` with `sharding`, at the current insertion point."""
    attributes = {"sdy.sharding": TensorShardingPerValue((sharding,)).to_attr()}
    if as_custom_call:
        attributes["call_target_name"] = ir.StringAttr.get(SHARDING_CUSTOM_CALL)
        return ir.Operation.create("stablehlo.custom_call", results=[value.type], operands=[value], attributes=attributes)
    return ir.Operation.create("mhlo.copy", results=[value.type], operands=[value], attributes=attributes)


def _as_stablehlo_constant(constant: ir.Operation) -> ir.Operation:
    """A `stablehlo.constant` with every attribute and the location of `constant`, inserted before it.

    Built from the op's generic text, since the bindings cannot read some
    element attributes (complex ones abort the process).
    """
    # Parsing verifies the detached op, so attributes naming symbols (meshes) are moved over afterwards.
    others = {name: constant.attributes[name] for name in constant.attributes if name != "value"}
    for name in others:
        del constant.attributes[name]
    text = constant.get_asm(print_generic_op_form=True, enable_debug_info=True, use_local_scope=True)
    generic = text.split("= ", 1)[1].replace(f'"{_CONSTANT}"', '"stablehlo.constant"', 1)
    new_op = ir.Operation.parse(generic)
    ir.InsertionPoint(constant).insert(new_op)
    for name, attr in others.items():
        new_op.attributes[name] = attr
    return new_op


def _moves_between_one_device_and_all(reshard: ir.Operation, meshes: dict[str, Mesh]) -> bool:
    """Whether the reshard takes a replicated value (or one without a sharding) to a maximal sharding, or a
    maximal value to a replicated sharding: the reshards jaxlib 0.12's XLA export drops."""

    def is_maximal(sharding: TensorSharding | None) -> bool:
        if sharding is None:
            return False
        mesh = sharding.mesh if isinstance(sharding.mesh, Mesh) else meshes.get(sharding.mesh)
        return mesh is not None and mesh.is_maximal

    def is_replicated(sharding: TensorSharding | None) -> bool:
        if sharding is None:
            return True
        return not is_maximal(sharding) and not sharding.unreduced and all(not dim.axes for dim in sharding.dims)

    source = get_sharding(reshard.operands[0])
    target = TensorSharding.from_attr(reshard.attributes["sharding"])
    return (is_maximal(source) and is_replicated(target)) or (is_replicated(source) and is_maximal(target))


def _replace(op: ir.Operation, new_op: ir.Operation) -> None:
    op.results[0].replace_all_uses_with(new_op.results[0])
    op.erase()


@register_pass
@dataclasses.dataclass(frozen=True)
class ExportOpsPass(Pass):
    argument = "xla-sdy-export-ops"
    summary = "Exports Shardy ops to StableHLO ops. Processes sdy::ReshardOp and sdy::ConstantOp."
    anchor = MODULE

    keep_hlo_sharding_constraints: bool = option(
        False,
        "Whether to convert SDY sharding constraints to @Sharding custom calls - the HLO sharding "
        "constraint op. Else export them to MHLO copy ops. By default, export to MHLO copy ops.",
    )

    def run(self, op: ir.Operation) -> None:
        names = (_CONSTANT,) + _COLLECTIVES + _CONSTRAINTS + _PASS_THROUGH
        sdy_ops = nested_ops_named(op, names)
        # Decided on the module as it comes, before any op is replaced (an ir.Operation's hash changes with its
        # operands, so the decisions are a list beside the ops).
        dropped = [False] * len(sdy_ops)
        if versions.installed().xla_export_drops_maximal_replicated_reshards:
            meshes = meshes_of(op)
            dropped = [
                sdy_op.name == "sdy.reshard" and _moves_between_one_device_and_all(sdy_op, meshes) for sdy_op in sdy_ops
            ]
        for sdy_op, drop in zip(sdy_ops, dropped):
            name = sdy_op.name
            if name in _PASS_THROUGH or drop:
                sdy_op.results[0].replace_all_uses_with(sdy_op.operands[0])
                sdy_op.erase()
                continue
            with ir.InsertionPoint(sdy_op), sdy_op.location:
                if name == _CONSTANT:
                    new_op = _as_stablehlo_constant(sdy_op)
                elif name in _CONSTRAINTS:
                    sharding = TensorSharding.from_attr(sdy_op.attributes["sharding"])
                    new_op = sharding_constraint(sdy_op.operands[0], sharding, self.keep_hlo_sharding_constraints)
                else:
                    sharding = TensorSharding.from_attr(sdy_op.attributes["out_sharding"])
                    new_op = sharding_constraint(sdy_op.operands[0], sharding, as_custom_call=False)
            _replace(sdy_op, new_op)
