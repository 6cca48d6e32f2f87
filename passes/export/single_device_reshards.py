"""Reshards around a single-device op (a tensor result on a maximal mesh: a host callback, or a reshard to a device), as
`sdy-insert-explicit-reshards` makes them from jax 0.11: each tensor operand not on the op's maximal mesh is moved
there (through replicated on the global mesh, the module's first with axes, when sharded or on another maximal mesh), all tensor
results are put there, and each comes back replicated on that mesh for its users (then resharded to the sharding it
had, if another). From jax 0.11 the pass also refuses a function argument or result on a maximal mesh."""

from __future__ import annotations

from typing import Optional

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import TensorSharding
from pysdy.passes.common.func_attrs import arg_shardings, result_shardings
from pysdy.passes.common.value_shardings import get_sharding, set_sharding
from pysdy.passes.common.values import rank
from pysdy.passes.export.reshard_ir import MeshTable, create_reshard, is_fully_replicated
from pysdy.passes.registry import PassFailure


def single_device_sharding(op: ir.Operation, meshes: MeshTable) -> Optional[TensorSharding]:
    """The maximal sharding the op's tensor results put it on (the last one, as Shardy takes), or None when none of
    them is on a maximal mesh. Fails the pass when two of them name different devices, as Shardy's pass does."""
    device = None
    for result in op.results:
        sharding = get_sharding(result) if isinstance(result.type, ir.RankedTensorType) else None
        if sharding is None or not meshes.of(sharding).is_maximal:
            continue
        if device is not None and meshes.of(device).device_ids != meshes.of(sharding).device_ids:
            op.location.emit_error(f"'{op.name}' op has conflicting single-device result shardings")
            raise PassFailure()
        device = sharding
    return device


def refuse_single_device_func_shardings(func: ir.Operation, meshes: MeshTable) -> None:
    """Fails the pass on the function's first argument, else first result, with a maximal sharding, as Shardy's
    pass does from jax 0.11 (the sharding must stay on the ops inside)."""
    kind = "single-device" if versions.installed().verifier_says_single_device_sharding else "single-device (maximal)"
    for what, shardings in (("argument", arg_shardings(func)), ("result", result_shardings(func))):
        for index, sharding in enumerate(shardings):
            if sharding is not None and meshes.of(sharding).is_maximal:
                func.location.emit_error(f"'func.func' op function {what} {index} cannot have a {kind} sharding attribute")
                raise PassFailure()


def reshard_single_device_op(op: ir.Operation, device: TensorSharding, mesh: str, meshes: MeshTable) -> None:
    """Moves the op's tensor operands to its device (through replicated on `mesh`, the global mesh, unless already
    replicated there) and puts all its tensor results there; each result is then
    replicated on `mesh` for its users, and resharded on to the sharding it had when that was another one."""
    for index, operand in enumerate(op.operands):
        if not isinstance(operand.type, ir.RankedTensorType):
            continue
        sharding = get_sharding(operand)
        if sharding == device:
            continue
        with ir.InsertionPoint(op):
            value = operand
            # Only an operand replicated on the global mesh (or without a sharding) goes to the device directly.
            if sharding is not None and not (sharding.mesh == mesh and is_fully_replicated(sharding)):
                value = create_reshard(value, TensorSharding.fully_closed(mesh, rank(operand)))
            value = create_reshard(value, device)
        op.operands[index] = value
    results = [result for result in op.results if isinstance(result.type, ir.RankedTensorType)]
    original = [get_sharding(result) for result in results]
    for result in results:
        set_sharding(result, device)
    after = op
    for result, sharding in zip(results, original):
        replicated_sharding = TensorSharding.fully_closed(mesh, rank(result))
        with ir.InsertionPoint.after(after):
            replicated = create_reshard(result, replicated_sharding)
            value = replicated
            if sharding is not None and sharding != replicated_sharding and not meshes.of(sharding).is_maximal:
                value = create_reshard(replicated, sharding)
        after = value.owner.operation
        result.replace_all_uses_except(value, replicated.owner.operation)
