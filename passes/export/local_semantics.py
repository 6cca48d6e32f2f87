"""Whether running an op on each device's local parts gives each device its part of the op's global result.

`sdy-convert-global-to-local` keeps ops as they are and gives them local
types; jaxlib's C++ does so blindly, trusting the passes before it. pysdy
first asks the op's sharding rule, on the global module:

- every factor split across devices is split on the same axes in every
  operand and result it appears in (else a device would combine parts that
  do not belong together);
- no split factor is one that needs the whole dimension (need-replication)
  or moves elements between positions (permutation: a reverse, a pad, a
  sort along the dimension...);
- a split reduction factor leaves partial results: they must go to one
  `sdy.all_reduce` over exactly the factor's axes that reduces as the op
  does (a sum of partial maxima, or of the halves of an argmax, is wrong),
  be marked unreduced, or, for a dot, gather, reduce or scatter, go to no sdy
  collective at all where the pass then finishes them itself (from jax 0.12,
  `unfinished_reduction_axes`);
- no dimension sliced at a position (a dynamic slice or update narrower than
  the operand) is split: the position is global; and no random numbers are
  drawn into a split result (each device would draw its own, not its part);
- no operand has unreduced axes, and a result's unreduced axes are exactly
  the split reduction factors' (partial results, marked so), or there is no
  split reduction (whole values marked partial, which the pass keeps on one
  device of each group).

A problem is a sentence saying what would be wrong; None means the local op
is right.
"""

from __future__ import annotations

from typing import Optional, Sequence

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import AxisRef, Mesh, TensorSharding
from pysdy.passes.common.collective_attrs import axis_list, axis_lists, reduction
from pysdy.passes.common.reduction_bodies import body_reduction
from pysdy.passes.propagation.rules import get_or_create_rule
from pysdy.passes.propagation.sharding_projection import ShardingProjection

# Ops whose split reduction factors leave partial sums: contractions, and a gather indexing a split dimension (one
# device gathers each slice, the others zeros); a reduce's or scatter's partial values reduce by its body.
_SUMMING_OPS = frozenset({"stablehlo.dot", "stablehlo.dot_general", "stablehlo.convolution", "stablehlo.gather"})
_BODY_REDUCING_OPS = frozenset({"stablehlo.reduce", "stablehlo.scatter"})
# Ops whose partial results the pass itself finishes where no sdy collective reads them.
_FINISHED_BY_THE_PASS = _SUMMING_OPS | _BODY_REDUCING_OPS


def local_problem(
    op: ir.Operation,
    operand_shardings: Sequence[Optional[TensorSharding]],
    result_shardings: Sequence[Optional[TensorSharding]],
    mesh: Mesh,
) -> Optional[str]:
    """What running `op` on local parts would get wrong, if anything."""
    if any(s is not None and s.unreduced for s in operand_shardings):
        return "reading partial values (an operand with unreduced axes)"
    position_problem = _global_position_problem(op, operand_shardings, result_shardings)
    if position_problem is not None:
        return position_problem
    if op.name == "stablehlo.optimization_barrier":
        # No rule: each result is its operand.
        if any(_dims(a) != _dims(b) for a, b in zip(operand_shardings, result_shardings)):
            return "with an operand and its result split differently"
        return None
    rule = get_or_create_rule(op)
    if rule is None:
        return "without a sharding rule, so what its local computation means is unknown"
    projection = ShardingProjection.build(operand_shardings, result_shardings, rule, mesh)
    for factor in range(len(rule.factor_sizes)):
        shardings = _factor_shardings(projection, factor)
        if any(s.overflow_axes for s in shardings):
            return "with a dimension split on axes that do not divide its factors"
        axes = [tuple(s.axis_refs) for s in shardings]
        if not any(axes):
            continue
        if any(a != axes[0] for a in axes):
            return "with its operands and results split differently along one dimension"
        if factor in rule.need_replication_factors:
            return "with a dimension split that it needs whole"
        if factor in rule.permutation_factors:
            return "with a dimension split along which it moves elements between devices' parts"
    reduced = _reduced_axes(projection, rule)
    unreduced = {axis for s in result_shardings if s is not None for axis in s.unreduced}
    if unreduced and not reduced:
        return None  # whole values made partial: the pass keeps them on one device of each group
    if unreduced and unreduced != set(reduced):
        return "with unreduced axes on a result that are not the axes its split reduction leaves partial"
    if reduced and not unreduced:
        return _partial_results_problem(op, reduced)
    return None


def unfinished_reduction_axes(
    op: ir.Operation,
    operand_shardings: Sequence[Optional[TensorSharding]],
    result_shardings: Sequence[Optional[TensorSharding]],
    mesh: Optional[Mesh],
) -> list[AxisRef]:
    """The axes along which a dot's, gather's, reduce's or scatter's results are partial, not marked unreduced, and
    read by no sdy collective, which `sdy-convert-global-to-local` finishes after it: an all-reduce reducing as it
    does (a reduce with several results: its partial results gathered and reduced again). Empty where there are
    none."""
    if not _finished_by_the_pass(op) or any(s is not None and s.unreduced for s in result_shardings):
        return []
    if any(finished_axes(user) is not None for user in _users(op)):
        return []
    return split_reduction_axes(op, operand_shardings, result_shardings, mesh)


def split_reduction_axes(
    op: ir.Operation,
    operand_shardings: Sequence[Optional[TensorSharding]],
    result_shardings: Sequence[Optional[TensorSharding]],
    mesh: Optional[Mesh],
) -> list[AxisRef]:
    """The axes along which `op`'s results are partial: those of its split reduction factors, in factor order."""
    rule = get_or_create_rule(op)
    if rule is None or mesh is None:
        return []
    return _reduced_axes(ShardingProjection.build(operand_shardings, result_shardings, rule, mesh), rule)


def _factor_shardings(projection: ShardingProjection, factor: int) -> list:
    return [t.factor_index_to_sharding[factor] for t in projection.tensors if factor in t.factor_index_to_sharding]


def _reduced_axes(projection: ShardingProjection, rule) -> list[AxisRef]:
    reduced: list[AxisRef] = []
    for factor in rule.reduction_factors:
        axes = [tuple(s.axis_refs) for s in _factor_shardings(projection, factor) if s.axis_refs]
        if axes:
            reduced.extend(axes[0])
    return reduced


def _global_position_problem(
    op: ir.Operation,
    operand_shardings: Sequence[Optional[TensorSharding]],
    result_shardings: Sequence[Optional[TensorSharding]],
) -> Optional[str]:
    """Ops whose meaning depends on where each element sits in the global tensor, which sharding rules of some
    lines do not tell (jax 0.10's takes a dynamic update slice's dimensions as passed through)."""
    split_dims = {
        dim
        for sharding in list(operand_shardings[:1]) + list(result_shardings)
        if sharding is not None
        for dim, dim_sharding in enumerate(sharding.dims)
        if dim_sharding.axes
    }
    if op.name in ("stablehlo.rng", "stablehlo.rng_bit_generator") and any(
        s is not None and any(d.axes for d in s.dims) for s in result_shardings
    ):
        return "drawing random numbers into a split result (each device would draw its own, not its part)"
    if op.name == "stablehlo.dynamic_slice":
        window = list(ir.DenseI64ArrayAttr(op.attributes["slice_sizes"]))
    elif op.name == "stablehlo.dynamic_update_slice":
        window = list(op.operands[1].type.shape)
    else:
        return None
    full = list(op.operands[0].type.shape)
    if any(window[dim] != full[dim] for dim in split_dims):
        return "slicing at a global position along a split dimension"
    return None


def _dims(sharding: Optional[TensorSharding]) -> tuple:
    return () if sharding is None else tuple(dim.axes for dim in sharding.dims)


def _partial_results_problem(op: ir.Operation, axes: list[AxisRef]) -> Optional[str]:
    """A split reduction leaves partial results: one all-reduce over exactly `axes`, reducing as `op`, must follow,
    or, after an op the pass finishes, none at all (the pass adds one)."""
    users = _users(op)
    if _finished_by_the_pass(op) and not any(finished_axes(user) is not None for user in users):
        return None
    kind = "sum" if op.name in _SUMMING_OPS else None
    if op.name in _BODY_REDUCING_OPS and len(op.results) == 1:
        kind = body_reduction(op.regions[0])
    if kind is None:
        return "reducing a split dimension in a way no all-reduce of its partial results can finish"
    if len(users) != 1 or not same_devices(finished_axes(users[0]), axes) or reduction(users[0]) != kind:
        return (
            "reducing a dimension split on " + "{" + ", ".join(f'"{a.name}"' for a in axes) + "}"
            + f" without one sdy.all_reduce or sdy.reduce_scatter ({kind}) over those axes after it to finish its "
            "partial results"
        )
    return None


def same_devices(axes: Optional[list[AxisRef]], others: list[AxisRef]) -> bool:
    """Whether a collective over `axes` reduces over the devices `others` spans (axes in any order)."""
    return axes is not None and len(axes) == len(others) and set(axes) == set(others)


def _finished_by_the_pass(op: ir.Operation) -> bool:
    return op.name in _FINISHED_BY_THE_PASS and versions.installed().convert_global_to_local_finishes_partial_results


def _users(op: ir.Operation) -> list[ir.Operation]:
    return [use.owner for result in op.results for use in result.uses]


def finished_axes(op: ir.Operation) -> Optional[list[AxisRef]]:
    """The axes over which a collective sums (or takes the max or min of) partial values: an all-reduce's, or a
    reduce-scatter's, dimension after dimension; None for any other op."""
    if op.name == "sdy.all_reduce":
        return list(axis_list(op, "reduction_axes"))
    if op.name == "sdy.reduce_scatter":
        return [axis for dim in axis_lists(op, "reduce_scatter_axes") for axis in dim]
    return None
