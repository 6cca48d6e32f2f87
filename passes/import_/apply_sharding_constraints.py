"""`sdy-apply-sharding-constraints`: copy the sharding of a sharding constraint (or a manual computation's
in-sharding) onto its input when the constraint dictates it."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy import versions
from pysdy.dialects.sdy import TensorSharding
from pysdy.passes.common.data_flow import EDGE_OP, MANUAL_COMPUTATION, edge_of_target
from pysdy.passes.common.ir_walk import nested_ops_named
from pysdy.passes.common.main_function import main_func
from pysdy.passes.common.value_shardings import get_sharding, set_sharding, shardable_value
from pysdy.passes.common.values import insertion_point_after, rank
from pysdy.passes.diagnostics import warnings_dropped
from pysdy.passes.propagation.debug_info import PropagationDebugInfo, UserShardings
from pysdy.passes.propagation.func_data_flow_edges import FUNC_EDGE_OP
from pysdy.passes.propagation.rules import get_or_create_rule
from pysdy.passes.propagation.sharding_graph import ShardingGraph
from pysdy.passes.registry import Pass, PassFailure, option, register_pass

CONSTRAINT = "sdy.sharding_constraint"
CONSTRAINT_USERS = frozenset({CONSTRAINT, MANUAL_COMPUTATION})


def _constraint_sharding(op: ir.Operation) -> ir.Attribute:
    return op.attributes["sharding"]


def _in_sharding(manual: ir.Operation, index: int) -> ir.Attribute:
    return sdy.TensorShardingPerValueAttr(manual.attributes["in_shardings"]).shardings[index]


def _used_by_constraint_with_other_sharding(value: ir.Value, sharding: ir.Attribute) -> bool:
    for use in value.uses:
        user = use.owner.operation
        if user.name == CONSTRAINT and _constraint_sharding(user) != sharding:
            return True
        if user.name == MANUAL_COMPUTATION and _in_sharding(user, use.operand_number) != sharding:
            return True
    return False


def _used_by_constraint(value: ir.Value, excluded: ir.Operation | None = None) -> bool:
    return any(
        use.owner.name in CONSTRAINT_USERS and (excluded is None or use.owner.operation != excluded)
        for use in value.uses
    )


def _has_sharding(value: ir.Value) -> bool:
    """Whether `value` has a sharding a constraint does not override. On the lines that override some, measured
    against their C++: a sharding without replicated or unreduced axes whose dimensions are all open and empty,
    or, on a result of an op with several results, one without dimensions, does not count."""
    sharding = get_sharding(value)
    if sharding is None:
        return False
    if not versions.installed().apply_sharding_constraints_overrides_open_shardings:
        return True
    if sharding.replicated or sharding.unreduced:
        return True
    if not sharding.dims:
        return not (isinstance(value, ir.OpResult) and len(value.owner.results) > 1)
    return not all(not dim.is_closed and not dim.axes for dim in sharding.dims)


def _should_apply(value: ir.Value, sharding: ir.Attribute) -> bool:
    if shardable_value(value) is None or _has_sharding(value):
        return False
    # Only a fully closed sharding dictates its input's sharding (as in GSPMD).
    if not all(dim.is_closed for dim in TensorSharding.from_attr(sharding).dims):
        return False
    return not _used_by_constraint_with_other_sharding(value, sharding)


def _is_data_flow_target(value: ir.Value) -> bool:
    func_edges_too = versions.installed().apply_sharding_constraints_func_edges_are_targets
    edges = {EDGE_OP, FUNC_EDGE_OP} if func_edges_too else {EDGE_OP}
    defined_by_edge = isinstance(value, ir.OpResult) and value.owner.name in edges
    return defined_by_edge or edge_of_target(value) is not None


def _apply(op: ir.Operation, value: ir.Value, sharding: ir.Attribute, constraint_after_value) -> bool:
    """Gives `value` the constraint's sharding; a data-flow target instead gets its uses routed through a
    constraint right after it, so the other targets of its edge stay unconstrained. True if `value` got it."""
    if not _should_apply(value, sharding):
        return False
    if _is_data_flow_target(value):
        constraint = constraint_after_value()
        value.replace_all_uses_except(constraint.results[0], constraint)
        constraint_sharding = TensorSharding.from_attr(sharding)
        if constraint_sharding.unreduced:
            # Unreduced axes don't propagate, so the value itself must carry them (with their kind), on the mesh
            # of its own (open) sharding if it has one.
            current = get_sharding(value) or TensorSharding.fully_open(constraint_sharding.mesh, rank(value))
            set_sharding(
                value,
                dataclasses.replace(
                    current, unreduced=constraint_sharding.unreduced, reduction=constraint_sharding.reduction
                ),
            )
        return False
    get_or_create_rule(op, False, set_on_op=True)
    set_sharding(value, TensorSharding.from_attr(sharding))
    return True


def _move_after_value(op: ir.Operation, value: ir.Value) -> None:
    if isinstance(value, ir.OpResult):
        op.move_after(value.owner.operation)
    else:
        op.move_before(value.owner.operations[0].operation)


def _chain_tail(head: ir.Operation) -> ir.Operation | None:
    """The last constraint of a chain of at least two starting at `head`, when every constraint but the
    last has a single use and the chain's input has no sharding and no other constraint users."""
    value = head.operands[0]
    if isinstance(value, ir.OpResult) and value.owner.name == CONSTRAINT:
        return None
    if _has_sharding(value) or _used_by_constraint(value, excluded=head):
        return None
    tail = head
    while True:
        uses = list(tail.results[0].uses)
        if len(uses) != 1 or uses[0].owner.name != CONSTRAINT:
            break
        tail = uses[0].owner.operation
    if tail == head or _used_by_constraint(tail.results[0]):
        return None
    return tail


def _apply_constraint(constraint: ir.Operation) -> bool:
    """Applies `constraint`; True if its input got its sharding."""
    value = constraint.operands[0]
    tail = _chain_tail(constraint)
    if tail is not None:
        # Later uses of the chain's input in the tail's block should see the chain's sharding.
        for use in list(value.uses):
            user = use.owner.operation
            if (
                user != constraint
                and user.name != "func.return"
                and user.block == tail.block
                and tail.is_before_in_block(user)
            ):
                user.operands[use.operand_number] = tail.results[0]

    def constraint_after_value():
        _move_after_value(constraint, value)
        return constraint

    return _apply(constraint, value, _constraint_sharding(constraint), constraint_after_value)


def _apply_in_shardings(manual: ir.Operation) -> None:
    for index, operand in enumerate(list(manual.operands)):
        sharding = _in_sharding(manual, index)

        def constraint_after_value(operand=operand, sharding=sharding):
            return sdy.ShardingConstraintOp(
                operand, sharding, loc=manual.location, ip=insertion_point_after(operand)
            ).operation

        _apply(manual, operand, sharding, constraint_after_value)


@register_pass
@dataclasses.dataclass(frozen=True)
class ApplyShardingConstraintsPass(Pass):
    argument = "sdy-apply-sharding-constraints"
    summary = "Applies constraints that dictate the sharding of their input."

    debug_sharding_origins: bool = option(
        False,
        "Whether to compute the debug origin shardings for constraints. See `debug-sharding-origins` option in "
        "propagation for more info.",
    )
    debug_propagation_edge_sharding: bool = option(
        False,
        "Whether to sink the debug propagation edge sharding info. See `debug-propagation-edge-sharding` option "
        "in propagation for more info.",
    )

    def run(self, op: ir.Operation) -> None:
        if versions.installed().apply_sharding_constraints_needs_main and main_func(op) is None:
            # jaxlib 0.12's C++ aborts here; pysdy refuses rather than guess what it would do.
            op.location.emit_error(
                "sdy-apply-sharding-constraints needs a function @main, or a single function "
                "(jaxlib's C++ aborts without)"
            )
            raise PassFailure()
        user_shardings = UserShardings.read(op) if self.debug_sharding_origins else None
        applied = []  # the constraints whose input got their sharding, in order
        for nested in nested_ops_named(op, CONSTRAINT_USERS):
            if nested.name == CONSTRAINT:
                if _apply_constraint(nested):
                    applied.append(nested)
            else:
                _apply_in_shardings(nested)
        if user_shardings is None and not self.debug_propagation_edge_sharding:
            return
        # As jaxlib, the debug info records each applied constraint as a propagation step (not manual
        # computations' in_shardings, nor constraints on data-flow targets).
        with warnings_dropped():  # Shardy's pass reads no rules but the constraints'
            graph = ShardingGraph(op, conservative=False)
        debug_info = PropagationDebugInfo.attach(
            graph, user_shardings, self.debug_propagation_edge_sharding, groups_synced=False
        )
        for constraint in applied:
            debug_info.record_applied_constraint(constraint)
        debug_info.write()
