"""`sdy-resolve-single-device-sharding` (jax lines from 0.11): each op whose results are on one device (a maximal
mesh) runs in a `stablehlo.if` taken on that device only, the others take zeros, and an `sdy.all_reduce` over the
module's first mesh with axes gives every device the result, as jaxlib's Shardy does it.

Where jaxlib's pass aborts or makes IR that does not verify (results on two devices, a single-device result beside
a sharded one, both a replica and a partition count, results without a zero value), pysdy refuses at the op.
"""

from __future__ import annotations

import dataclasses
from typing import Optional

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import AxisRef, TensorSharding
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.export.reshard_ir import MeshTable, create_all_reduce, is_fully_replicated
from pysdy.passes.registry import FUNC, Pass, PassFailure, option, register_pass

_PASS = "sdy-resolve-single-device-sharding"


class _Refused(Exception):
    """`op` cannot be resolved as jaxlib does it, for `reason`."""

    def __init__(self, op: ir.Operation, reason: str):
        super().__init__(reason)
        self.op = op
        self.reason = reason


@register_pass
@dataclasses.dataclass(frozen=True)
class ResolveSingleDeviceShardingPass(Pass):
    argument = _PASS
    summary = "Resolves single-device shardings: each such op runs on its device and its results are all-reduced."
    anchor = FUNC
    line_field = "resolve_single_device_sharding"

    partition_count: int = option(1, "The number of partitions (a single-device op compares the partition id).")
    replica_count: int = option(1, "The number of replicas (other than 1: it compares the replica id).")

    def run(self, op: ir.Operation) -> None:
        meshes = MeshTable(op.parent)
        global_mesh = meshes.global_mesh()
        if global_mesh is None:
            return
        devices: list[tuple[ir.Operation, int]] = []
        try:
            for nested in nested_ops(op):
                device = None if nested.name.startswith("sdy.") else _device_of(nested, meshes)
                if device is not None:
                    devices.append((nested, device))
            for nested, _ in devices:
                self._check_resolvable(nested)
        except _Refused as refused:
            refused.op.location.emit_error(f"{_PASS}: '{refused.op.name}' {refused.reason}")
            raise PassFailure() from None
        for nested, device in devices:
            self._resolve(nested, device, global_mesh, meshes)

    def _check_resolvable(self, op: ir.Operation) -> None:
        if self.replica_count != 1 and self.partition_count != 1:
            raise _Refused(op, "cannot pick a device id: replica-count and partition-count both differ from 1")
        for type_ in op.results.types:
            if isinstance(type_, ir.RankedTensorType):
                _check_has_zero(op, type_)
            elif not _is_token(type_):
                raise _Refused(op, f"has a result of type {type_}, which a stablehlo.if cannot return")

    def _resolve(self, op: ir.Operation, device: int, global_mesh: str, meshes: MeshTable) -> None:
        """Wraps `op` in an if on `device` and all-reduces its tensor results for every user."""
        loc = op.location
        with ir.InsertionPoint(op), loc:
            on_device = self._device_guard(device)
            if_op = ir.Operation.create("stablehlo.if", results=list(op.results.types), operands=[on_device], regions=2)
        operand_reshards = _run_on_device(op, if_op.regions[0].blocks.append(), meshes)
        _return_zeros(op, if_op.regions[1].blocks.append())
        with ir.InsertionPoint.after(if_op), loc:
            all_axes = [AxisRef(axis.name) for axis in meshes.meshes[global_mesh].axes]
            for result, if_result in zip(op.results, if_op.results):
                if not isinstance(if_result.type, ir.RankedTensorType):
                    result.replace_all_uses_with(if_result)
                    continue
                replicated = TensorSharding.fully_closed(global_mesh, if_result.type.rank)
                reduced = create_all_reduce(if_result, all_axes, replicated)
                _replace_uses(result, reduced, replicated)
        op.erase()
        for reshard in operand_reshards:
            if not list(reshard.results[0].uses):
                reshard.erase()

    def _device_guard(self, device: int) -> ir.Value:
        """`device id == device`, as an i1 tensor (jax 0.11 compares the id converted to i64)."""
        id_type = ir.RankedTensorType.get([], ir.IntegerType.get_unsigned(32))
        name = "stablehlo.partition_id" if self.replica_count == 1 else "stablehlo.replica_id"
        device_id = ir.Operation.create(name, results=[id_type]).results[0]
        if not versions.installed().single_device_guard_compares_ui32:
            id_type = ir.RankedTensorType.get([], ir.IntegerType.get_signless(64))
            device_id = ir.Operation.create("stablehlo.convert", results=[id_type], operands=[device_id]).results[0]
        target = _constant(id_type, ir.DenseElementsAttr.get_splat(id_type, ir.IntegerAttr.get(id_type.element_type, device)))
        i1 = ir.RankedTensorType.get([], ir.IntegerType.get_signless(1))
        direction = ir.Attribute.parse("#stablehlo<comparison_direction EQ>")
        compare = ir.Operation.create(
            "stablehlo.compare", results=[i1], operands=[device_id, target], attributes={"comparison_direction": direction}
        )
        return compare.results[0]


def _device_of(op: ir.Operation, meshes: MeshTable) -> Optional[int]:
    """The device of the op's results on a maximal mesh, None when there are none; the other tensor results must
    be replicated."""
    device, sharded = None, False
    for result in op.results:
        if not isinstance(result.type, ir.RankedTensorType):
            continue
        sharding = get_sharding(result)
        if sharding is None:
            continue
        mesh = meshes.of(sharding)
        if mesh.is_maximal:
            if device is not None and device != mesh.device_ids[0]:
                raise _Refused(op, f"has results on two devices ({device} and {mesh.device_ids[0]})")
            device = mesh.device_ids[0]
        elif not is_fully_replicated(sharding):
            sharded = True
    if device is not None and sharded:
        raise _Refused(op, "has a result on a single device and a sharded result")
    return device


def _check_has_zero(op: ir.Operation, type_: ir.RankedTensorType) -> None:
    if not type_.has_static_shape:
        raise _Refused(op, f"has a dynamically shaped result ({type_}), which no zero constant fills")
    element = type_.element_type
    if isinstance(element, ir.ComplexType):
        if not versions.installed().single_device_zeros_complex:
            raise _Refused(op, f"has a complex result ({type_}): this jaxlib's Shardy crashes making its zeros")
    elif not isinstance(element, (ir.IntegerType, ir.FloatType)):
        raise _Refused(op, f"has a result of type {type_}, which no zero constant fills")


def _is_token(type_: ir.Type) -> bool:
    return str(type_) == "!stablehlo.token"


def _is_single_device_reshard(value: ir.Value, meshes: MeshTable) -> bool:
    if not isinstance(value, ir.OpResult) or value.owner.name != "sdy.reshard":
        return False
    return meshes.of(get_sharding(value)).is_maximal


def _run_on_device(op: ir.Operation, block: ir.Block, meshes: MeshTable) -> list[ir.Operation]:
    """Clones `op` without its sharding into `block`, taking single-device reshards' inputs directly, and returns its
    results; the bypassed reshards are returned (the caller erases those left unused)."""
    with ir.InsertionPoint(block), op.location:
        clone = op.clone()
        del clone.attributes["sdy.sharding"]
        reshards: list[ir.Operation] = []
        for index, operand in enumerate(clone.operands):
            if _is_single_device_reshard(operand, meshes):
                reshard = operand.owner.operation
                clone.operands[index] = reshard.operands[0]
                if reshard not in reshards:
                    reshards.append(reshard)
        ir.Operation.create("stablehlo.return", operands=list(clone.results))
    return reshards


def _return_zeros(op: ir.Operation, block: ir.Block) -> None:
    """Returns zeros (tensors) and new tokens from `block`, one per result of `op`."""
    with ir.InsertionPoint(block), op.location:
        values = []
        for type_ in op.results.types:
            if isinstance(type_, ir.RankedTensorType):
                values.append(_zeros(type_, op.location))
            else:
                values.append(ir.Operation.create("stablehlo.create_token", results=[type_]).results[0])
        ir.Operation.create("stablehlo.return", operands=values)


def _zeros(type_: ir.RankedTensorType, loc: ir.Location) -> ir.Value:
    """A `stablehlo.constant` of zeros, built from text: the bindings cannot build (or read) complex elements."""
    value = f"dense<{_zero_text(type_.element_type)}> : {type_}"
    constant = ir.Operation.parse(f'"stablehlo.constant"() <{{value = {value}}}> : () -> {type_} {loc}')
    ir.InsertionPoint.current.insert(constant)
    return constant.results[0]


def _zero_text(element: ir.Type) -> str:
    if isinstance(element, ir.ComplexType):
        return "(0.0,0.0)"
    if isinstance(element, ir.IntegerType):
        return "false" if element.width == 1 else "0"
    return "0.0"


def _constant(type_: ir.Type, value: ir.Attribute) -> ir.Value:
    return ir.Operation.create("stablehlo.constant", results=[type_], attributes={"value": value}).results[0]


def _replace_uses(result: ir.Value, reduced: ir.Value, replicated: TensorSharding) -> None:
    """Every user of `result` takes `reduced`; a reshard to exactly `replicated` is dropped for it."""
    for use in list(result.uses):
        user = use.owner
        if user.name == "sdy.reshard" and get_sharding(user.results[0]) == replicated:
            user.results[0].replace_all_uses_with(reduced)
            user.erase()
        else:
            user.operands[use.operand_number] = reduced
