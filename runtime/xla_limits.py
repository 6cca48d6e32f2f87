"""Module forms jaxlib's XLA cannot compile, rewritten before the hand-off into equivalent ones, shardings kept.

(a) A sharded `stablehlo.while` (on the gspmd route, also one in a manual
computation, which XLA's export shards `{manual}`) whose body returns one of
its arguments unchanged: the conversion to HLO lifts that loop-invariant
operand out of the loop tuple but keeps its element of the while's tuple
sharding, and XLA then fails a RET_CHECK in hlo_sharding.cc ("has N leaf
nodes while this sharding has M") or crashes the process. The body returns a
sharding constraint of the argument to the loop's own sharding of it instead:
the identity for the partitioner, and the operand stays in the loop state.
(The sdy route hands a loop's sharding over as constraints, shardings_as_constraints.py, but for a loop with
unreduced axes, which keeps it: the process then crashes in jaxlib 0.10's XLA.)
(b) `stablehlo.case` / `stablehlo.if` branches returning values sharded
differently from each other or from the op's result: HLO's verifier rejects
the conditional ("Inconsistent conditional sharding among instructions")
on the sdy route. Each branch returns its value constrained to the op's
result sharding (the first branch value's when the op has none), the reshard
the conditional's result needs anyway, inside the branch that makes it.
(c) On the sdy route, `sdy.reshard`: jaxlib's compile path removes the meshes
before it exports reshards, and then fails with "'sdy.reshard' op unknown
mesh". After propagation a reshard to a sharding pins the same sharding on its
result as an `sdy.sharding_constraint`, which that path does export, so it
becomes one.
"""

from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.common.data_flow import terminator_operands
from pysdy.passes.common.ir_walk import nested_ops_named
from pysdy.passes.common.manual_axes import enclosing_manual_computation
from pysdy.passes.common.value_shardings import get_sharding


def reshards_as_constraints(module: ir.Module) -> list[str]:
    """Replaces each `sdy.reshard` by an `sdy.sharding_constraint` to the same sharding (c); one note for all."""
    reshards = nested_ops_named(module.operation, {"sdy.reshard"})
    for reshard in reshards:
        with ir.InsertionPoint(reshard), reshard.location:
            constraint = ir.Operation.create(
                "sdy.sharding_constraint",
                results=[reshard.results[0].type],
                operands=[reshard.operands[0]],
                attributes={"sharding": reshard.attributes["sharding"]},
            )
        reshard.results[0].replace_all_uses_with(constraint.results[0])
        reshard.erase()
    if not reshards:
        return []
    return [
        f"made {len(reshards)} sdy.reshard op(s) sdy.sharding_constraint ops to the same shardings: jaxlib 0.10.2's "
        "compile path drops the meshes before exporting reshards and then rejects them"
    ]


def _return_constrained(region: ir.Region, index: int, sharding: TensorSharding) -> None:
    """Makes the region's terminator return its operand `index` through a sharding constraint to `sharding`."""
    terminator = list(region.blocks[0].operations)[-1]
    value = terminator.operands[index]
    constraint = sdy.ShardingConstraintOp(
        value, sharding.to_attr(), loc=terminator.location, ip=ir.InsertionPoint(terminator)
    )
    terminator.operands[index] = constraint.result


def pin_loop_invariants(module: ir.Module, in_manual_computations: bool = True) -> None:
    """(a): in each sharded while, and (if `in_manual_computations`) each while in a manual computation (whose
    loops XLA's GSPMD export shards `{manual}`), each argument the body returns unchanged is returned through a
    constraint to the loop's sharding of it (replicated along the free axes where the loop has none)."""
    for loop in nested_ops_named(module.operation, {"stablehlo.while"}):
        manual = enclosing_manual_computation(loop) if in_manual_computations else None
        if "sdy.sharding" not in loop.attributes and manual is None:
            continue
        body = loop.regions[1]
        arguments = body.blocks[0].arguments
        for index, (returned, argument) in enumerate(zip(terminator_operands(body), arguments)):
            if returned == argument and isinstance(argument.type, ir.RankedTensorType):
                sharding = get_sharding(loop.results[index]) or _replicated_in(manual, argument)
                _return_constrained(body, index, sharding)


def _replicated_in(manual: ir.Operation, value: ir.Value) -> TensorSharding:
    """Closed and replicated along every axis, on the mesh of the manual computation's first in-sharding."""
    mesh = TensorShardingPerValue.from_attr(manual.attributes["in_shardings"]).shardings[0].mesh
    return TensorSharding.fully_closed(mesh, len(ir.RankedTensorType(value.type).shape))


def unify_branch_results(module: ir.Module) -> None:
    """(b): each value a case / if returns is returned by every branch with the op's result sharding."""
    for op in nested_ops_named(module.operation, {"stablehlo.case", "stablehlo.if"}):
        for index, values in enumerate(zip(*(terminator_operands(branch) for branch in op.regions))):
            shardings = [get_sharding(value) for value in values]
            target = get_sharding(op.results[index]) or next((s for s in shardings if s is not None), None)
            if target is None:
                continue
            for branch, sharding in zip(op.regions, shardings):
                if sharding != target:
                    _return_constrained(branch, index, target)
