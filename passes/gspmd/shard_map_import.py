"""`xla-sdy-shard-map-import`: a GSPMD shard_map (`@Sharding` + `@SPMDFullToShardShape`, `call @shmap_body`,
`@Sharding` + `@SPMDShardToFullShape`) as an `sdy.manual_computation` holding the body.

Runs after `xla-sdy-import-shardings`, as XLA's pass of that name did: each
operand of a `shmap_body*` call must come from `@SPMDFullToShardShape` of
`@Sharding` (whose sharding becomes the in-sharding, its operand the new
operand), and each used result must go through `@Sharding` to
`@SPMDShardToFullShape` (whose sharding becomes the out-sharding). Unused
results are dropped. The callee's body moves into the region (each further
call gets a copy) and the callee, the call and the custom calls are erased.
The dims either custom call lists as `unspecified_dims` in its
`backend_config` are open in its sharding, as `xla-sdy-import-sdy-custom-calls`
opens them in a constraint: JAX writes them for the axes a partly manual
shard_map leaves free (XLA's pass left them closed, with a to-do).

Beyond XLA, the same shape as XLA's own export writes it is imported too, so
pysdy's import of an exported module gives the manual computation back: the
body is `xla.sdy.inlinable_manual_computation_body*`, and the constraints
are `mhlo.copy` ops unless the export kept them as `@Sharding`.

Manual axes: the axes `xla-sdy-import-shardings` kept in `xla.sdy.manual_axes`
on the pattern's manual custom calls (`{manual}` is every mesh axis), which
JAX's own sdy lowering also makes manual; without them, XLA's rule, the
axes the in/out shardings use. Manual axes a sharding does not use are added
to its replicated axes, as XLA does.
"""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.dialects.sdy import AxisRef, ManualAxes, Mesh, TensorSharding, TensorShardingPerValue
from pysdy.passes.common.custom_calls import custom_call_target
from pysdy.passes.common.func_bodies import move_func_body
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.gspmd.import_sdy_custom_calls import with_unspecified_dims_open
from pysdy.passes.gspmd.import_shardings import MANUAL_AXES
from pysdy.passes.import_.call_graph import callee_name
from pysdy.passes.import_.symbols import SymbolTable, mesh_of
from pysdy.passes.registry import Pass, PassFailure, register_pass

SHARDING = "sdy.sharding"
# JAX's GSPMD lowering, then XLA's stablehlo export.
BODY_PREFIXES = ("shmap_body", "xla.sdy.inlinable_manual_computation_body")
COPY = "mhlo.copy"


class _NoPattern(Exception):
    """The call is not in the shape JAX gives a shard_map."""


def _is_shard_map_custom_call(op: ir.Operation, target: str) -> bool:
    """One operand, one used result, the target (XLA's test)."""
    return (
        custom_call_target(op) == target
        and len(op.operands) == 1
        and len(op.results) == 1
        and not _unused(op.results[0])
    )


def _is_constraint(op: ir.Operation) -> bool:
    """A `@Sharding` custom call, or the copy XLA's export makes of a constraint; one operand, one used result."""
    if op.name == COPY:
        return not _unused(op.results[0])
    return _is_shard_map_custom_call(op, "Sharding")


def _unused(value: ir.Value) -> bool:
    return next(iter(value.uses), None) is None


def _only_user(value: ir.Value) -> ir.Operation | None:
    users = [use.owner.operation for use in value.uses]
    return users[0] if len(users) == 1 else None


@dataclasses.dataclass
class _Pair:
    """The `@Sharding` custom call and the shape custom call next to it."""

    sharding: ir.Operation
    shape: ir.Operation


def _argument_pair(operand: ir.Value) -> _Pair:
    full_to_shard = operand.owner if isinstance(operand, ir.OpResult) else None
    if full_to_shard is None or full_to_shard.name != "stablehlo.custom_call":
        raise _NoPattern("expecting CustomCallOp as operand")
    full_to_shard = full_to_shard.operation
    if not _is_shard_map_custom_call(full_to_shard, "SPMDFullToShardShape"):
        raise _NoPattern("expecting SPMDFullToShardShape custom call as operand")
    source = full_to_shard.operands[0]
    if not isinstance(source, ir.OpResult) or source.owner.name not in ("stablehlo.custom_call", COPY):
        raise _NoPattern("expecting CustomCallOp as operand of SPMDFullToShardShape")
    sharding = source.owner.operation
    if not _is_constraint(sharding):
        raise _NoPattern("expecting Sharding CustomCallOp as operand of SPMDFullToShardShape")
    return _Pair(sharding, full_to_shard)


def _result_pair(result: ir.Value) -> _Pair | None:
    if _unused(result):
        return None
    sharding = _only_user(result)
    if sharding is None:
        raise _NoPattern("expecting each result of shmap_body to have one or no uses")
    if sharding.name not in ("stablehlo.custom_call", COPY):
        raise _NoPattern("expecting CustomCallOp as the use of the result of the CallOp")
    if not _is_constraint(sharding):
        raise _NoPattern("expecting Sharding CustomCallOp as the use of the result of the CallOp")
    shard_to_full = _only_user(sharding.results[0])
    if shard_to_full is None:
        raise _NoPattern("expecting Sharding CustomCallOp user of the result to have one use")
    if shard_to_full.name != "stablehlo.custom_call":
        raise _NoPattern("expecting CustomCallOp as the use of Sharding CustomCallOp")
    if not _is_shard_map_custom_call(shard_to_full, "SPMDShardToFullShape"):
        raise _NoPattern("expecting SPMDShardToFullShape CustomCallOp as the use of Sharding CustomCallOp")
    return _Pair(sharding, shard_to_full)


def _sharding_of(op: ir.Operation) -> TensorSharding:
    """The custom call's sharding, its unspecified dims open."""
    if SHARDING not in op.attributes:
        op.location.emit_error(f"expected `{SHARDING}` on the custom call (run xla-sdy-import-shardings first)")
        raise PassFailure()
    return with_unspecified_dims_open(op, TensorShardingPerValue.from_attr(op.attributes[SHARDING]).shardings[0])


def _recorded_manual_axes(op: ir.Operation) -> tuple[str, ...]:
    return ManualAxes.from_attr(op.attributes[MANUAL_AXES]).axes if MANUAL_AXES in op.attributes else ()


def _used_axes(sharding: TensorSharding) -> list[AxisRef]:
    return [axis for dim in sharding.dims for axis in dim.axes] + list(sharding.replicated)


def _with_manual_axes_replicated(sharding: TensorSharding, manual_axes: list[str], mesh: Mesh) -> TensorSharding:
    """The sharding with each manual axis it does not use (even in part, or as an unreduced axis) added to its
    replicated axes."""
    used = {axis.name for axis in _used_axes(sharding) + list(sharding.unreduced)}
    missing = [AxisRef(name) for name in manual_axes if name not in used]
    if not missing:
        return sharding
    order = {axis.name: index for index, axis in enumerate(mesh.axes)}
    replicated = sorted(
        list(sharding.replicated) + missing,
        key=lambda a: (order[a.name], a.sub_axis.pre_size if a.sub_axis else 0),
    )
    return dataclasses.replace(sharding, replicated=tuple(replicated))


@register_pass
@dataclasses.dataclass(frozen=True)
class ShardMapImportPass(Pass):
    argument = "xla-sdy-shard-map-import"
    summary = "Replaces a CallOp pattern unique to JAX shard_map with a ManualComputationOp."

    def run(self, module: ir.Operation) -> None:
        symbols = SymbolTable(module)
        calls = [call for call in nested_ops(module, name="func.call") if callee_name(call).startswith(BODY_PREFIXES)]
        remaining = {}
        for call in calls:
            remaining[callee_name(call)] = remaining.get(callee_name(call), 0) + 1
        for call in calls:
            name = callee_name(call)
            remaining[name] -= 1
            _import_call(call, symbols, last_call=remaining[name] == 0)
        for copy in nested_ops(module, name=COPY):
            if MANUAL_AXES in copy.attributes:
                del copy.attributes[MANUAL_AXES]


def _import_call(call: ir.Operation, symbols: SymbolTable, last_call: bool) -> None:
    try:
        arguments = [_argument_pair(operand) for operand in call.operands]
        results = [_result_pair(result) for result in call.results]
    except _NoPattern as error:
        call.location.emit_error(str(error))
        raise PassFailure() from None
    callee = symbols.lookup(callee_name(call))
    if callee is None or len(callee.regions[0].blocks) != 1:
        call.location.emit_error(f"expecting @{callee_name(call)} to be a function with one block")
        raise PassFailure()
    used = [pair for pair in results if pair is not None]
    in_shardings = [_sharding_of(pair.sharding) for pair in arguments]
    out_shardings = [_sharding_of(pair.shape) for pair in used]
    manual_axes: list[str] = []
    shardings = in_shardings + out_shardings
    if shardings:
        mesh_name = shardings[0].mesh
        if any(s.mesh != mesh_name for s in shardings):
            call.location.emit_error("Multiple meshes in a single manual computation.")
            raise PassFailure()
        mesh = mesh_of(shardings[0], symbols)
        manual_axes = _manual_axes(call, arguments, used, shardings, mesh)
        in_shardings = [_with_manual_axes_replicated(s, manual_axes, mesh) for s in in_shardings]
        out_shardings = [_with_manual_axes_replicated(s, manual_axes, mesh) for s in out_shardings]
    manual = sdy.ManualComputationOp(
        [pair.shape.results[0].type for pair in used],
        [pair.sharding.operands[0] for pair in arguments],
        TensorShardingPerValue(tuple(in_shardings)).to_attr(),
        TensorShardingPerValue(tuple(out_shardings)).to_attr(),
        ManualAxes(tuple(manual_axes)).to_attr(),
        loc=call.location,
        ip=ir.InsertionPoint(call),
    ).operation
    source = callee if last_call else callee.clone(ir.InsertionPoint(callee))
    move_func_body(source, manual)
    _drop_unused_results(manual, results)
    for pair, result in zip(used, manual.results):
        pair.shape.results[0].replace_all_uses_with(result)
    if last_call:
        symbols.erase(callee)
    else:
        source.erase()
    for pair in used:
        pair.shape.erase()
        pair.sharding.erase()
    call.erase()
    distinct: list[_Pair] = []
    for pair in arguments:
        # The same custom calls may feed several operands.
        if not any(pair.shape == seen.shape for seen in distinct):
            distinct.append(pair)
    for pair in distinct:
        # They may feed other ops too.
        if _unused(pair.shape.results[0]):
            pair.shape.erase()
        if _unused(pair.sharding.results[0]):
            pair.sharding.erase()


def _manual_axes(call, arguments, used, shardings, mesh: Mesh) -> list[str]:
    """The recorded manual axes of the manual-side custom calls; none when no shape changes; else XLA's rule,
    the axes the in/out shardings use (whole axes)."""
    recorded = {
        name
        for op in [pair.shape for pair in arguments] + [pair.sharding for pair in used]
        for name in _recorded_manual_axes(op)
    }
    if recorded:
        names = recorded
    elif all(pair.shape.operands[0].type == pair.shape.results[0].type for pair in arguments + used):
        # No custom call changes a shape: every manual axis had size 1 and left no trace (XLA's export).
        names = set()
    else:
        axes = [axis for sharding in shardings for axis in _used_axes(sharding)]
        sub_axis = next((axis for axis in axes if axis.sub_axis is not None), None)
        if sub_axis is not None:
            call.location.emit_error(f"the shard_map's in/out shardings use sub-axis {sub_axis} of a manual axis")
            raise PassFailure()
        names = {axis.name for axis in axes}
    order = [axis.name for axis in mesh.axes]
    return sorted(names, key=order.index)


def _drop_unused_results(manual: ir.Operation, results: list[_Pair | None]) -> None:
    block = manual.regions[0].blocks[0]
    terminator = block.operations[len(block.operations) - 1].operation
    if all(pair is not None for pair in results):
        return
    kept = [value for value, pair in zip(terminator.operands, results) if pair is not None]
    sdy.ReturnOp(kept, loc=terminator.location, ip=ir.InsertionPoint(terminator))
    terminator.erase()
