"""Reshards around a single-device op (all its results on a maximal mesh, e.g. a host callback), as
`sdy-insert-explicit-reshards` makes them from jax 0.11: each tensor operand is gathered (replicated on the
module's first non-maximal mesh when sharded) and moved to the op's device, each tensor result is replicated
back on that mesh for all its users. From jax 0.11 the pass also refuses a function argument or result on a maximal
mesh."""

from __future__ import annotations

from typing import Optional

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import TensorSharding
from pysdy.passes.common.func_attrs import arg_shardings, result_shardings
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.common.values import rank
from pysdy.passes.export.reshard_ir import MeshTable, create_reshard
from pysdy.passes.registry import PassFailure


def single_device_sharding(op: ir.Operation, meshes: MeshTable) -> Optional[TensorSharding]:
    """The maximal sharding every result of `op` has, or None when `op` is not a single-device op."""
    shardings = [get_sharding(result) for result in op.results] if "sdy.sharding" in op.attributes else []
    if not shardings or any(s is None or not meshes.of(s).is_maximal for s in shardings):
        return None
    return shardings[0]


def refuse_single_device_func_shardings(func: ir.Operation, meshes: MeshTable) -> None:
    """Fails the pass on the function's first argument, else first result, with a maximal sharding, as Shardy's
    pass does from jax 0.11 (the sharding must stay on the ops inside)."""
    kind = "single-device" if versions.installed().verifier_says_single_device_sharding else "single-device (maximal)"
    for what, shardings in (("argument", arg_shardings(func)), ("result", result_shardings(func))):
        for index, sharding in enumerate(shardings):
            if sharding is not None and meshes.of(sharding).is_maximal:
                func.location.emit_error(f"'func.func' op function {what} {index} cannot have a {kind} sharding attribute")
                raise PassFailure()


def first_non_maximal_mesh(meshes: MeshTable) -> Optional[str]:
    """The first `sdy.mesh` of the module that is not maximal."""
    return next((name for name, mesh in meshes.meshes.items() if not mesh.is_maximal), None)


def reshard_single_device_op(op: ir.Operation, device: TensorSharding, mesh: str, meshes: MeshTable) -> None:
    """Reshards the op's tensor operands to its device and its tensor results to replicated on `mesh`."""
    for index, operand in enumerate(op.operands):
        if not isinstance(operand.type, ir.RankedTensorType):
            continue
        sharding = get_sharding(operand)
        if sharding is not None and meshes.of(sharding).is_maximal and sharding.mesh == device.mesh:
            continue
        with ir.InsertionPoint(op):
            value = operand
            if sharding is not None and any(dim.axes for dim in sharding.dims):
                value = create_reshard(value, TensorSharding.fully_closed(mesh, rank(operand)))
            value = create_reshard(value, TensorSharding(device.mesh, ()))
        op.operands[index] = value
    after = op
    for result in op.results:
        if not isinstance(result.type, ir.RankedTensorType):
            continue
        with ir.InsertionPoint.after(after):
            replicated = create_reshard(result, TensorSharding.fully_closed(mesh, rank(result)))
        after = replicated.owner.operation
        result.replace_all_uses_except(replicated, after)
