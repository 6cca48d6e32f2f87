"""The ops with data-flow edges (Shardy's ShardableDataFlowOpInterface): their edge owners, edges, sources and targets.

A data-flow edge ties values that must be sharded alike: the results of a
while / case / optimization_barrier (and if, from jaxlib 0.12 on) with their
operands and region returns, and the block arguments and results of sdy.named_computation /
sdy.manual_computation with the values flowing into them. Each edge has an
owner (a result, or a region op's block argument); `sdy-add-data-flow-edges`
puts an `sdy.data_flow_edge` on it, which holds the sharding of all targets.
"""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy import versions

EDGE_OP = "sdy.data_flow_edge"
NAMED_COMPUTATION = "sdy.named_computation"
MANUAL_COMPUTATION = "sdy.manual_computation"
REGION_EDGE_OPS = frozenset({NAMED_COMPUTATION, MANUAL_COMPUTATION})
# Ops whose results take the values their regions return, one region of which runs.
BRANCH_OPS = frozenset({"stablehlo.case", *(("stablehlo.if",) if versions.installed().if_is_data_flow_op else ())})
RESULT_EDGE_OPS = frozenset({"stablehlo.while", "stablehlo.optimization_barrier", *BRANCH_OPS})
DATA_FLOW_OPS = REGION_EDGE_OPS | RESULT_EDGE_OPS


def owning_op(value: ir.Value) -> ir.Operation:
    """The op defining `value`, or owning the block `value` is an argument of."""
    if isinstance(value, ir.OpResult):
        return value.owner.operation
    return value.owner.owner.operation


def block_arg_edge_owners(op: ir.Operation) -> list[ir.Value]:
    if op.name in REGION_EDGE_OPS:
        return list(op.regions[0].blocks[0].arguments)
    return []


def result_edge_owners(op: ir.Operation) -> list[ir.Value]:
    return list(op.results) if op.name in DATA_FLOW_OPS else []


def is_edge_owner(value: ir.Value) -> bool:
    """Whether `value` owns a data-flow edge: a result of a data-flow op, or a block argument of a region edge op."""
    owner = owning_op(value)
    if isinstance(value, ir.OpResult):
        return owner.name in DATA_FLOW_OPS
    return owner.name in REGION_EDGE_OPS


def edge_owner_of_target(value: ir.Value) -> ir.Value | None:
    """The edge owner `value` is a target of: a result of a data-flow op (while block
    arguments map to the while's results), or a block argument of a region edge op."""
    owner = owning_op(value)
    if owner.name in REGION_EDGE_OPS:
        return value
    if isinstance(value, ir.OpResult):
        return value if owner.name in RESULT_EDGE_OPS else None
    if owner.name in RESULT_EDGE_OPS:
        return owner.results[value.arg_number]
    return None


def edge_user(owner: ir.Value) -> ir.Operation | None:
    """The `sdy.data_flow_edge` whose input is `owner`, if that edge is `owner`'s only use."""
    uses = list(owner.uses)
    if len(uses) == 1 and uses[0].owner.operation.name == EDGE_OP:
        return uses[0].owner.operation
    return None


def edge_of_target(value: ir.Value) -> ir.Operation | None:
    """The `sdy.data_flow_edge` of the edge owner `value` is a target of (Shardy's `DataFlowEdgeOp::lookup`)."""
    owner = edge_owner_of_target(value)
    return None if owner is None else edge_user(owner)


def edge_owner_of_source(use) -> ir.Value | None:
    """The edge owner an operand use feeds, if the use is a source of a data-flow edge.

    A terminator's operand belongs to the op around it. For a region edge op, a
    terminator operand feeds the result of that number; an operand of the op
    itself feeds no edge, as in Shardy, whose lookup maps it to the operand
    value rather than to the block argument (so the op, not the edge of its
    block argument, is what Shardy notifies). For a data-flow op, any operand
    feeds the result of that operand's number (whatever the operand means,
    e.g. a case index or a while condition).
    """
    user = use.owner.operation
    number = use.operand_number
    in_terminator = user.has_trait(ir.IsTerminatorTrait)
    op = user.parent if in_terminator else user
    if op is None:
        return None
    if op.name in REGION_EDGE_OPS:
        return op.results[number] if in_terminator else None
    if op.name in RESULT_EDGE_OPS and number < len(op.results):
        return op.results[number]
    return None


def edge_of_source(use) -> ir.Operation | None:
    """The `sdy.data_flow_edge` an operand use is a source of, if any."""
    owner = edge_owner_of_source(use)
    return None if owner is None else edge_user(owner)


def terminator_operands(region: ir.Region) -> list[ir.Value]:
    """What the region's (single) block returns."""
    operations = list(region.blocks[0].operations)
    return list(operations[-1].operands)


def edge_sources(edge: ir.Operation) -> list[ir.Value]:
    """The values whose shardings flow into the targets of `edge`."""
    owner_value = edge.operands[0]
    owner = owning_op(owner_value)
    if owner.name in REGION_EDGE_OPS:
        if isinstance(owner_value, ir.OpResult):
            return [terminator_operands(owner.regions[0])[owner_value.result_number]]
        return [owner.operands[owner_value.arg_number]]
    number = owner_value.result_number
    if owner.name == "stablehlo.while":
        return [owner.operands[number], terminator_operands(owner.regions[1])[number]]
    if owner.name in BRANCH_OPS:
        return [terminator_operands(region)[number] for region in owner.regions]
    return [owner.operands[number]]


def non_owner_targets(edge: ir.Operation) -> list[ir.Value]:
    """Targets other than the owner: a while's cond and body block arguments."""
    owner_value = edge.operands[0]
    owner = owning_op(owner_value)
    if owner.name != "stablehlo.while":
        return []
    number = owner_value.result_number
    return [owner.regions[0].blocks[0].arguments[number], owner.regions[1].blocks[0].arguments[number]]


def replace_edge_with_input(edge: ir.Operation) -> None:
    """Erases a data-flow edge (or func data-flow edge), its uses taking its input instead."""
    edge.results[0].replace_all_uses_with(edge.operands[0])
    edge.erase()
